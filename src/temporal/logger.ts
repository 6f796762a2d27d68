// The Temporal SDK's logs (worker state, workflow bundling, activity failures) through our one
// JSON logger instead of the SDK's console format.
import type { Logger as TemporalLogger, LogLevel, LogMetadata } from '@temporalio/common';
import type { Logger } from '../logger.js';

const LEVELS: Record<LogLevel, 'trace' | 'debug' | 'info' | 'warn' | 'error'> = {
  TRACE: 'trace',
  DEBUG: 'debug',
  INFO: 'info',
  WARN: 'warn',
  ERROR: 'error',
};

/**
 * SDK lines that say nothing an operator acts on (webpack's bundle listing, queues this worker was
 * never meant to poll): debug, so the info log stays readable.
 */
const CHATTER = [/^asset workflow-bundle/, /^No (?:Nexus services|workflows|activities) registered, not polling/];

export function temporalLogger(logger: Logger): TemporalLogger {
  const sdk = logger.child({ component: 'temporal-sdk' });
  const log = (level: LogLevel, message: string, meta?: LogMetadata) => {
    const quiet = CHATTER.some((re) => re.test(message));
    sdk[quiet ? 'debug' : LEVELS[level]](meta ?? {}, message);
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
