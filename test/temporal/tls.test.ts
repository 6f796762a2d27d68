// The Temporal connection over TLS and mTLS (README "Security"): the Temporal server the cluster
// tests build, in one process on in-memory SQLite, its frontend serving TLS with client
// certificates required; certificates made here with openssl (no private key is checked in). The
// API's client and the worker's native connection both connect with the TEMPORAL_TLS_* settings,
// and without them (plaintext, no client certificate, another name) they do not.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time.js';
import { NativeConnection } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createTemporalClient } from '../../src/temporal/client.js';
import { temporalConnectionOptions } from '../../src/temporal/connection.js';
import { temporalServer } from '../../src/tooling/install.mjs';
import { freePorts } from '../../src/tooling/ports.js';
import { skipWithout } from '../support/tools.js';

const SERVER_NAME = 'temporal.test';

/** A CA, a server certificate for SERVER_NAME and 127.0.0.1, a client certificate, one of another CA. */
function makeCertificates(dir: string) {
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ca = (name: string) =>
    openssl(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      `/CN=${name}`,
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.pem`,
    );
  const leaf = (name: string, signer: string, ext: string) => {
    openssl(
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      `/CN=${name}`,
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.csr`,
    );
    fs.writeFileSync(path.join(dir, `${name}.ext`), ext);
    openssl(
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      `${signer}.pem`,
      '-CAkey',
      `${signer}.key`,
      '-CAcreateserial',
      '-days',
      '1',
      '-extfile',
      `${name}.ext`,
      '-out',
      `${name}.pem`,
    );
  };
  ca('ca');
  ca('other-ca');
  leaf('server', 'ca', `subjectAltName=DNS:${SERVER_NAME},IP:127.0.0.1\nextendedKeyUsage=serverAuth,clientAuth\n`);
  leaf('client', 'ca', 'extendedKeyUsage=clientAuth\n');
  leaf('intruder', 'other-ca', 'extendedKeyUsage=clientAuth\n');
  return (name: string) => path.join(dir, name);
}

const server = temporalServer({ build: false });

describe.skipIf(skipWithout('the Temporal TLS connection test', 'the Temporal server (Go-built)'))(
  'Temporal over TLS with client certificates',
  () => {
    let dir: string;
    let file: (name: string) => string;
    let child: ChildProcess;
    let address: string;

    beforeAll(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'temporal-tls-'));
      file = makeCertificates(dir);
      const [frontend, http, history, matching, m1, m2, m3] = await freePorts(7);
      address = `127.0.0.1:${frontend}`;
      const sqlite = {
        sql: {
          pluginName: 'sqlite',
          databaseName: 'default',
          connectAddr: 'localhost',
          connectProtocol: 'tcp',
          connectAttributes: { mode: 'memory', cache: 'private' },
          maxConns: 1,
          maxIdleConns: 1,
          maxConnLifetime: '1h',
        },
      };
      const rpc = (grpcPort: number, membershipPort: number, extra = {}) => ({
        rpc: { grpcPort, membershipPort, bindOnLocalHost: true, ...extra },
      });
      const config = {
        log: { stdout: false, level: 'warn', outputFile: path.join(dir, 'server.log') },
        persistence: {
          defaultStore: 'sqlite-default',
          visibilityStore: 'sqlite-visibility',
          numHistoryShards: 1,
          datastores: { 'sqlite-default': sqlite, 'sqlite-visibility': sqlite },
        },
        global: {
          membership: { maxJoinDuration: '30s', broadcastAddress: '127.0.0.1' },
          tls: {
            frontend: {
              server: {
                certFile: file('server.pem'),
                keyFile: file('server.key'),
                clientCaFiles: [file('ca.pem')],
                requireClientAuth: true,
              },
              client: { serverName: SERVER_NAME, rootCaFiles: [file('ca.pem')] },
            },
          },
        },
        services: {
          frontend: rpc(frontend!, m1!, { httpPort: http }),
          history: rpc(history!, m2!),
          matching: rpc(matching!, m3!),
        },
        clusterMetadata: {
          enableGlobalNamespace: false,
          failoverVersionIncrement: 10,
          masterClusterName: 'active',
          currentClusterName: 'active',
          clusterInformation: {
            active: { enabled: true, initialFailoverVersion: 1, rpcName: 'frontend', rpcAddress: address },
          },
        },
        dcRedirectionPolicy: { policy: 'noop' },
      };
      fs.mkdirSync(path.join(dir, 'config'));
      fs.writeFileSync(path.join(dir, 'config', 'tls.yaml'), JSON.stringify(config, null, 2));
      child = spawn(
        server.bin!.server!,
        [
          '--root',
          dir,
          '--config',
          'config',
          '--env',
          'tls',
          '--allow-no-auth',
          'start',
          '--service',
          'frontend',
          '--service',
          'history',
          '--service',
          'matching',
        ],
        { stdio: 'ignore' },
      );
      // Until the frontend listens (or the server exits, with its log).
      for (;;) {
        if (child.exitCode !== null)
          throw new Error(`temporal server exited: ${fs.readFileSync(path.join(dir, 'server.log'), 'utf8')}`);
        const open = await new Promise<boolean>((resolve) => {
          const socket = net.connect(frontend!, '127.0.0.1', () => socket.end(() => resolve(true)));
          socket.on('error', () => resolve(false));
        });
        if (open) break;
        await new Promise((r) => setTimeout(r, 200));
      }
    }, 120_000);

    afterAll(async () => {
      child?.kill('SIGKILL');
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    const settings = (extra: Record<string, string> = {}) =>
      loadConfig({
        TEMPORAL_ADDRESS: address,
        TEMPORAL_TLS_CA: file('ca.pem'),
        TEMPORAL_TLS_CERT: file('client.pem'),
        TEMPORAL_TLS_KEY: file('client.key'),
        TEMPORAL_TLS_SERVER_NAME: SERVER_NAME,
        ...extra,
      });

    it('the API client and the worker connection reach the frontend with the TEMPORAL_TLS_* settings', async () => {
      const client = createTemporalClient(settings());
      try {
        // The frontend answers once its services have joined: asked until then.
        let info;
        for (const deadline = Date.now() + 60_000; ; await new Promise((r) => setTimeout(r, 500))) {
          info = await client.workflowService.getSystemInfo({}).catch((err: unknown) => err as Error);
          if (!(info instanceof Error) || Date.now() > deadline) break;
        }
        expect(info).not.toBeInstanceOf(Error);
        expect((info as { serverVersion?: string }).serverVersion).toMatch(/^1\.29\./);
        await client.workflowService.registerNamespace({
          namespace: 'tls-test',
          workflowExecutionRetentionPeriod: msToTs('1 day'),
        });
        const described = await client.workflowService.describeNamespace({ namespace: 'tls-test' });
        expect(described.namespaceInfo?.name).toBe('tls-test');
      } finally {
        await client.connection.close();
      }
      const native = await NativeConnection.connect(temporalConnectionOptions(settings()));
      try {
        const info = await native.workflowService.getSystemInfo({});
        expect(info.serverVersion).toMatch(/^1\.29\./);
      } finally {
        await native.close();
      }
    }, 120_000);

    it('no connection without TLS, without a client certificate, with another CA’s, or for another name', async () => {
      const fails = async (config: ReturnType<typeof loadConfig>) => {
        const attempt = Connection.connect({ ...temporalConnectionOptions(config), connectTimeout: 5000 }).then(
          async (conn) => {
            try {
              await conn.workflowService.getSystemInfo({});
            } finally {
              await conn.close();
            }
          },
        );
        await expect(attempt).rejects.toThrow();
      };
      await fails(loadConfig({ TEMPORAL_ADDRESS: address }));
      await fails(
        loadConfig({
          TEMPORAL_ADDRESS: address,
          TEMPORAL_TLS_CA: file('ca.pem'),
          TEMPORAL_TLS_SERVER_NAME: SERVER_NAME,
        }),
      );
      await fails(settings({ TEMPORAL_TLS_CERT: file('intruder.pem'), TEMPORAL_TLS_KEY: file('intruder.key') }));
      await fails(settings({ TEMPORAL_TLS_SERVER_NAME: 'elsewhere.test' }));
    }, 120_000);

    it('settings that do not go together are refused at start, naming the variable', () => {
      expect(() => loadConfig({ TEMPORAL_TLS_CERT: file('client.pem') })).toThrow(/TEMPORAL_TLS_KEY/);
      expect(() => loadConfig({ TEMPORAL_TLS: 'false', TEMPORAL_TLS_CA: file('ca.pem') })).toThrow(/TEMPORAL_TLS_CA/);
      expect(() => temporalConnectionOptions(settings({ TEMPORAL_TLS_CA: path.join(dir, 'missing.pem') }))).toThrow(
        /TEMPORAL_TLS_CA=.*missing\.pem cannot be read/,
      );
      expect(temporalConnectionOptions(settings({ TEMPORAL_API_KEY: 'key-for-the-authorizer' })).apiKey).toBe(
        'key-for-the-authorizer',
      );
      expect(loadConfig({ TEMPORAL_TLS: 'true' }).temporal.tls).toEqual({});
    });
  },
);
