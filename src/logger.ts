// The one logger: structured JSON lines on stdout (pino).
import { pino } from 'pino';

export const logger = pino({
  level: process.env.LOG_LEVEL ?? 'info',
  base: { service: process.env.SERVICE_NAME ?? 'video-api' },
  timestamp: pino.stdTimeFunctions.isoTime,
  redact: { paths: ['req.headers.authorization', 'authorization'], censor: '[redacted]' },
});

export type Logger = typeof logger;
