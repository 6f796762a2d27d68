// The repository's patches to its dependencies (patches/) apply to the versions installed: each patched
// package is copied into a scratch checkout, the patch taken off it again (`git apply -R`: the package as
// npm ships it), and the installer's own step (applyDependencyPatches, run by `npm start` and `npm test`)
// puts it back, byte for byte. An upgraded package the patch no longer fits fails here, naming the patch;
// test/engines/held-frames.test.ts shows the HyperFrames patch still does its work (frames skipped).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { applyDependencyPatches } from '../../src/tooling/install.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'patches-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

const patches = fs.readdirSync(path.join(root, 'patches')).filter((f) => f.endsWith('.patch'));

/** `@scope+name+1.2.3.patch` → the package's name and the version the patch is for. */
function packageOf(file: string): { name: string; version: string } {
  const parts = file.replace(/\.patch$/, '').split('+');
  return { name: parts.slice(0, -1).join('/'), version: parts.at(-1)! };
}

describe('dependency patches', () => {
  it('there is the HyperFrames producer patch, for the installed version', () => {
    const producer = patches.map(packageOf).find((p) => p.name === '@hyperframes/producer');
    const installed = JSON.parse(
      fs.readFileSync(path.join(root, 'node_modules/@hyperframes/producer/package.json'), 'utf8'),
    ) as { version: string };
    expect(producer?.version).toBe(installed.version);
  });

  it.each(patches)(
    '%s applies to the installed package as npm ships it',
    (file) => {
      const { name } = packageOf(file);
      const dir = path.join(scratch, file);
      const target = path.join(dir, 'node_modules', name);
      fs.mkdirSync(path.join(dir, 'patches'), { recursive: true });
      fs.copyFileSync(path.join(root, 'patches', file), path.join(dir, 'patches', file));
      fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'scratch', private: true }));
      fs.cpSync(path.join(root, 'node_modules', name), target, { recursive: true });
      fs.symlinkSync(path.join(root, 'node_modules/patch-package'), path.join(dir, 'node_modules/patch-package'));
      const patched = (f: string) => fs.readFileSync(path.join(root, f));
      const files = [
        ...fs.readFileSync(path.join(dir, 'patches', file), 'utf8').matchAll(/^diff --git a\/(\S+) b\//gm),
      ].map((m) => m[1]!);
      expect(files.length).toBeGreaterThan(0);

      // The installed package carries the patch: taking it off must succeed.
      execFileSync('git', ['apply', '-R', '--unidiff-zero', path.join('patches', file)], { cwd: dir });
      for (const f of files) expect(fs.readFileSync(path.join(dir, f)).equals(patched(f))).toBe(false);

      applyDependencyPatches(dir);
      for (const f of files) expect(fs.readFileSync(path.join(dir, f)).equals(patched(f))).toBe(true);
      // A second run finds it applied (its record) and changes nothing.
      const before = files.map((f) => fs.statSync(path.join(dir, f)).mtimeMs);
      applyDependencyPatches(dir);
      expect(files.map((f) => fs.statSync(path.join(dir, f)).mtimeMs)).toEqual(before);
    },
    120_000,
  );

  it('a patch that does not fit stops the installer, naming it', () => {
    const dir = path.join(scratch, 'broken');
    const file = patches[0]!;
    const { name } = packageOf(file);
    fs.mkdirSync(path.join(dir, 'patches'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'scratch', private: true }));
    fs.mkdirSync(path.join(dir, 'node_modules', name), { recursive: true });
    fs.copyFileSync(
      path.join(root, 'node_modules', name, 'package.json'),
      path.join(dir, 'node_modules', name, 'package.json'),
    );
    fs.symlinkSync(path.join(root, 'node_modules/patch-package'), path.join(dir, 'node_modules/patch-package'));
    // The patch's files exist, but hold none of the lines it changes (as after an upstream rewrite).
    const text = fs.readFileSync(path.join(root, 'patches', file), 'utf8');
    fs.writeFileSync(path.join(dir, 'patches', file), text);
    for (const m of text.matchAll(/^diff --git a\/(\S+) b\//gm)) {
      fs.mkdirSync(path.dirname(path.join(dir, m[1]!)), { recursive: true });
      fs.writeFileSync(path.join(dir, m[1]!), '// rewritten upstream\n');
    }
    expect(() => applyDependencyPatches(dir)).toThrow(
      new RegExp(`${file.replace(/[+.]/g, '\\$&')}.*no longer applies`),
    );
  });
});
