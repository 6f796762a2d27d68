// docker-compose.yml as shipped (README "Security"): no control-plane port published (PostgreSQL,
// the Temporal frontend and UI, SeaweedFS's master and filer), no secret written in the file (each is
// a required variable, `${VAR:?message}`, so compose refuses to start naming it), and the optional
// local-admin override publishing on 127.0.0.1 only. Read as compose reads it: YAML with merge keys,
// then variables interpolated (required ones refuse, naming the variable, as `docker compose config`
// does); where a compose CLI is here, `docker compose config` itself too.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { containersUnavailable } from '../../src/tooling/containers.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

type Service = { ports?: string[]; environment?: Record<string, string>; command?: string | string[] };
type ComposeFile = { services: Record<string, Service> };

/** Compose's interpolation of `${VAR}`, `${VAR:-default}`, `${VAR:?message}`, `$$`; a required one unset throws. */
function interpolate(text: string, env: Record<string, string>): string {
  return text.replace(/\$\$|\$\{(\w+)(?:(:?[-?])([^}]*))?\}/g, (whole, name, op, arg) => {
    if (whole === '$$') return '$';
    const value = env[name];
    if (op === ':?' && !value) throw new Error(`required variable ${name} is missing a value: ${arg}`);
    if (op === ':-' && !value) return arg;
    return value ?? '';
  });
}

const SECRETS = {
  POSTGRES_PASSWORD: 'pw0123456789',
  S3_ACCESS_KEY_ID: 'operatorkey',
  S3_SECRET_ACCESS_KEY: 'operator-secret-0123456789',
  MEDIA_URL_SECRET: 'x'.repeat(40),
};

/** Every published port of the file as compose would see it: `service → ["address:host:container"]`. */
function published(file: ComposeFile): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(file.services)
      .filter(([, s]) => s.ports?.length)
      .map(([name, s]) => [name, s.ports!]),
  );
}

describe('docker-compose.yml as shipped', () => {
  const raw = read('docker-compose.yml');

  it('publishes only the APIs and the S3 port signed video URLs need; no control plane', () => {
    const file = parseYaml(interpolate(raw, SECRETS), { merge: true }) as ComposeFile;
    const ports = published(file);
    expect(Object.keys(ports).sort()).toEqual(['api-1', 'api-2', 's3']);
    expect(ports.s3).toEqual(['0.0.0.0:8333:8333']);
    for (const [name, list] of Object.entries(ports))
      for (const port of list) expect(port.split(':').at(-1), name).toMatch(/^(8080|8333)$/);
    // The Temporal frontend (7233) and UI (8080 in its container), PostgreSQL and SeaweedFS's other ports: not out.
    expect(JSON.stringify(ports)).not.toMatch(/:(7233|8233|5432|9333|8888)"/);
  });

  it('holds no secret: every password and key is a required variable, and compose refuses to start without it', () => {
    // Nothing like the old defaults, and no literal value where a secret goes.
    expect(raw).not.toMatch(/change-me|PASSWORD: video|PWD: video|--password video|video:video@/);
    const file = parseYaml(raw, { merge: true }) as ComposeFile;
    const secretName = /PASSWORD|PWD|SECRET|ACCESS_KEY/;
    let checked = 0;
    for (const [service, s] of Object.entries(file.services)) {
      for (const [variable, value] of Object.entries(s.environment ?? {})) {
        if (secretName.test(variable)) {
          expect(String(value), `${service}: ${variable}`).toMatch(/^\$\{\w+:\?[^}]+\}$/);
          checked++;
        }
        if (variable === 'DATABASE_URL') expect(String(value)).toMatch(/^postgres:\/\/video:\$\{POSTGRES_PASSWORD:\?/);
      }
    }
    expect(checked).toBeGreaterThanOrEqual(8);
    // Unset, each one stops compose, naming it.
    for (const name of Object.keys(SECRETS)) {
      const env = { ...SECRETS, [name]: '' };
      expect(() => interpolate(raw, env), name).toThrow(new RegExp(`^required variable ${name} is missing a value`));
    }
    // Set, the services get the operator's values.
    const file2 = parseYaml(interpolate(raw, SECRETS), { merge: true }) as ComposeFile;
    expect(file2.services['api-1']!.environment).toMatchObject({
      DATABASE_URL: `postgres://video:${SECRETS.POSTGRES_PASSWORD}@postgres:5432/video`,
      S3_ACCESS_KEY_ID: SECRETS.S3_ACCESS_KEY_ID,
      S3_SECRET_ACCESS_KEY: SECRETS.S3_SECRET_ACCESS_KEY,
      MEDIA_URL_SECRET: SECRETS.MEDIA_URL_SECRET,
    });
    expect(file2.services.s3!.environment).toEqual({
      AWS_ACCESS_KEY_ID: SECRETS.S3_ACCESS_KEY_ID,
      AWS_SECRET_ACCESS_KEY: SECRETS.S3_SECRET_ACCESS_KEY,
    });
  });

  it('the local-admin override publishes the Temporal frontend and UI on 127.0.0.1 only', () => {
    const override = parseYaml(interpolate(read('docker-compose.local-admin.yml'), {}), { merge: true }) as ComposeFile;
    expect(published(override)).toEqual({
      'temporal-frontend': ['127.0.0.1:7233:7233'],
      'temporal-ui': ['127.0.0.1:8233:8080'],
    });
  });

  it.skipIf(containersUnavailable() !== null)(
    'docker compose config agrees: refuses without a secret, naming it',
    async () => {
      const run = promisify(execFile);
      const env = { ...process.env, ...SECRETS, POSTGRES_PASSWORD: '' };
      const refused = await run('docker', ['compose', '-f', 'docker-compose.yml', 'config'], { cwd: ROOT, env }).catch(
        (err: { code: number; stderr: string }) => err,
      );
      expect((refused as { code: number }).code).not.toBe(0);
      expect((refused as { stderr: string }).stderr).toMatch(/POSTGRES_PASSWORD/);
      const { stdout } = await run('docker', ['compose', '-f', 'docker-compose.yml', 'config', '--format', 'json'], {
        cwd: ROOT,
        env: { ...process.env, ...SECRETS },
      });
      const config = JSON.parse(stdout) as { services: Record<string, { ports?: Array<{ target: number }> }> };
      const out = Object.entries(config.services)
        .filter(([, s]) => s.ports?.length)
        .map(([name]) => name);
      expect(out.sort()).toEqual(['api-1', 'api-2', 's3']);
    },
  );
});
