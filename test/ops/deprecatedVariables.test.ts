// A renamed variable keeps working under its old name (README, Configuration, "Renamed variables"):
// the worker reads WEBHOOK_UNSAFE_ALLOW_LOOPBACK as OUTBOUND_UNSAFE_ALLOW_LOOPBACK and logs one
// warning at start naming the new variable.
import crypto from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { createNamespace } from '../../src/tooling/temporalDevServer.js';
import { startWorkerProcess, testEnv } from '../support/stack.js';

const linesOf = (output: string) =>
  output
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { level: number; msg: string });

describe('a deprecated variable name', () => {
  it('still applies, with one warning at start naming its replacement', async () => {
    const namespace = `test-${crypto.randomBytes(4).toString('hex')}`;
    await createNamespace(inject('temporalAddress'), namespace);
    const worker = startWorkerProcess(
      testEnv({ TEMPORAL_NAMESPACE: namespace, WORKER_QUEUES: 'io', WEBHOOK_UNSAFE_ALLOW_LOOPBACK: 'true' }),
    );
    try {
      await worker.ready;
      const lines = linesOf(worker.output());
      const deprecations = lines.filter((l) => l.msg.includes('deprecated'));
      expect(deprecations).toEqual([
        expect.objectContaining({
          level: 40,
          msg: expect.stringMatching(/^WEBHOOK_UNSAFE_ALLOW_LOOPBACK .*OUTBOUND_UNSAFE_ALLOW_LOOPBACK/),
        }),
      ]);
      // Read as the new variable: the outbound requests' unsafe setting is on.
      expect(lines.some((l) => l.level === 40 && /UNSAFE/.test(l.msg))).toBe(true);
    } finally {
      await worker.stop();
    }
  });
});
