// The Temporal SDK's logs (worker state, workflow bundling, activity failures) through our one
// JSON logger instead of the SDK's console format, and the log context of activity calls.
import type { Logger as TemporalLogger, LogLevel, LogMetadata } from '@temporalio/common';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { withLogContext, type Logger } from '../logger.js';

const LEVELS: Record<LogLevel, 'trace' | 'debug' | 'info' | 'warn' | 'error'> = {
  TRACE: 'trace',
  DEBUG: 'debug',
  INFO: 'info',
  WARN: 'warn',
  ERROR: 'error',
};

/**
 * SDK lines that say nothing an operator acts on (webpack's bundle listing and size, queues this
 * worker was never meant to poll, each state a worker passes through on start and stop; the worker
 * logs its own "worker running" and "worker stopped"): debug, so the info log stays readable.
 */
const CHATTER = [
  /^asset workflow-bundle/,
  /^Workflow bundle created/,
  /^No (?:Nexus services|workflows|activities) registered, not polling/,
  /^Worker state changed/,
];

/** A generation workflow's id is its generation's id (`gen_…`); other workflows name theirs in their input. */
const generationWorkflowId = (workflowId: unknown) =>
  typeof workflowId === 'string' && workflowId.startsWith('gen_') ? workflowId : undefined;

/**
 * The SDK core repeats itself while Temporal is away: every poller logs every retry ("gRPC call
 * poll_activity_task_queue retried 6 times"). One line of a kind (its words, numbers aside) per this
 * long at its own level; the repeats are debug.
 */
const CORE_REPEAT_QUIET_MS = 60_000;

/**
 * `stopping()` is true once the worker was asked to stop. Activities in flight then fail as their
 * render processes get the same Ctrl-C; Temporal retries them elsewhere, so the SDK's "Activity
 * failed" is expected news (info), not a warning the operator should act on.
 */
export function temporalLogger(logger: Logger, stopping: () => boolean = () => false): TemporalLogger {
  const sdk = logger.child({ component: 'temporal-sdk' });
  const coreLastLogged = new Map<string, number>();
  const repeated = (message: string, meta?: LogMetadata) => {
    if (meta?.sdkComponent !== 'core') return false;
    const kind = message.replace(/\d+/g, '#');
    const now = Date.now();
    if (now - (coreLastLogged.get(kind) ?? -Infinity) < CORE_REPEAT_QUIET_MS) return true;
    coreLastLogged.set(kind, now);
    return false;
  };
  const log = (level: LogLevel, message: string, meta?: LogMetadata) => {
    const quiet = CHATTER.some((re) => re.test(message)) || repeated(message, meta);
    // Activity and workflow lines ("Activity failed") carry the workflow id: name the generation too.
    const generationId = generationWorkflowId(meta?.workflowId);
    const expected = level === 'WARN' && message === 'Activity failed' && stopping();
    sdk[quiet ? 'debug' : expected ? 'info' : LEVELS[level]](
      generationId ? { generation_id: generationId, ...meta } : (meta ?? {}),
      message,
    );
  };
  return {
    log,
    trace: (m, meta) => log('TRACE', m, meta),
    debug: (m, meta) => log('DEBUG', m, meta),
    info: (m, meta) => log('INFO', m, meta),
    warn: (m, meta) => log('WARN', m, meta),
    error: (m, meta) => log('ERROR', m, meta),
  };
}

/**
 * Runs every activity call in the log context of its generation (src/logger.ts), so what it reaches
 * without a logger of its own (engines, render supervision) logs `generation_id`.
 */
export const activityLogContext: ActivityInterceptorsFactory = (ctx) => ({
  inbound: {
    execute: (input, next) => {
      const call = input.args[0] as { generationId?: unknown } | undefined;
      const generationId =
        typeof call?.generationId === 'string'
          ? call.generationId
          : generationWorkflowId(ctx.info.workflowExecution?.workflowId);
      return generationId ? withLogContext({ generation_id: generationId }, () => next(input)) : next(input);
    },
  },
});
