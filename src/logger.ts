// The one logger: structured JSON lines on stdout (pino).
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
