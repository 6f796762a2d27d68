#!/usr/bin/env node
// `node src/tooling/lockfile.mjs`: completes package-lock.json with the other platforms' optional
// packages (native builds such as @swc/core-darwin-arm64) that npm leaves out when it resolves the tree
// against a registry that serves only this platform's builds. Without them `npm ci` refuses the lock
// ("Missing: … from lock file") on any machine. Each entry gets the version its parent asks for and the
// os/cpu/libc its name states, so npm installs it where it fits and skips it elsewhere. The container
// test (test/deploy/compose.test.ts) builds the image, whose `npm ci` fails when an entry is missing again.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const lockFile = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../package-lock.json');
const OSES = new Set([
  'android',
  'darwin',
  'freebsd',
  'linux',
  'openbsd',
  'openharmony',
  'sunos',
  'win32',
  'aix',
  'netbsd',
]);

/** `@swc/core-linux-arm-gnueabihf` → {os: linux, cpu: arm, libc: glibc}; null when the name states no platform. */
function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const i = parts.findIndex((p) => OSES.has(p));
  if (i < 0 || !parts[i + 1]) return null;
  const abi = parts[i + 2] ?? '';
  const libc = /^gnu/.test(abi) ? 'glibc' : /^musl/.test(abi) ? 'musl' : null;
  return { os: parts[i], cpu: parts[i + 1], libc };
}

const lock = JSON.parse(fs.readFileSync(lockFile, 'utf8'));
const packages = lock.packages;
const added = [];
for (const [location, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    // Node's lookup: the package's own node_modules, then each enclosing one up to the top.
    const candidates = [];
    for (let at = location; ; at = at.slice(0, Math.max(0, at.lastIndexOf('/node_modules/')))) {
      candidates.push(`${at ? `${at}/` : ''}node_modules/${name}`);
      if (!at) break;
    }
    if (candidates.some((c) => packages[c])) continue;
    const platform = platformOf(name);
    if (!platform) continue;
    packages[`node_modules/${name}`] = {
      version,
      optional: true,
      os: [platform.os],
      cpu: [platform.cpu],
      ...(platform.libc && { libc: [platform.libc] }),
    };
    added.push(`${name}@${version}`);
  }
}
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
fs.writeFileSync(lockFile, `${JSON.stringify(lock, null, 2)}\n`);
process.stderr.write(
  `[lockfile] ${added.length ? `added ${added.length}: ${added.join(', ')}` : 'complete: nothing to add'}\n`,
);
