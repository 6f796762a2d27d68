// The one logger: structured JSON lines on stdout (pino).
import { AsyncLocalStorage } from 'node:async_hooks';
import { pino } from 'pino';
import { loadLoggerConfigOrExit } from './config.js';

const settings = loadLoggerConfigOrExit();

export const logger = pino({
  level: settings.level,
  base: { service: settings.serviceName },
  timestamp: pino.stdTimeFunctions.isoTime,
  redact: { paths: ['req.headers.authorization', 'authorization'], censor: '[redacted]' },
});

export type Logger = typeof logger;

/** What the current work is about: the worker sets it around each activity call (src/temporal/logger.ts). */
export type LogContext = { generation_id?: string };

const context = new AsyncLocalStorage<LogContext>();

/** Runs `fn` with `fields` added to the log context of everything it calls, however deep. */
export function withLogContext<T>(fields: LogContext, fn: () => T): T {
  return context.run({ ...context.getStore(), ...fields }, fn);
}

/**
 * A child of the one logger carrying the current log context and `bindings`. Code reached through
 * layers that take no logger (engines, render isolation) logs through it, so its lines name their
 * generation. The context is read once, here: lines logged later from event handlers keep it.
 */
export function contextLogger(bindings: Record<string, unknown> = {}): Logger {
  return logger.child({ ...context.getStore(), ...bindings });
}
