// The one place that reads process.env. Every variable is validated with zod at start-up;
// a bad value stops the process with a message naming the variable. A leaf: it imports nothing of the
// project, so every module may import it. Variables declared elsewhere (each engine's settings) are
// read through readVariables, with the same checks.
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

const port = z.coerce.number().int().min(0).max(65535);
const flag = z.enum(['true', 'false']).transform((v) => v === 'true');

/** Reference webhook retry schedule (Svix): delays before attempts 1..8, ≈ 24 h in total. */
export const DEFAULT_RETRY_SCHEDULE = '0,5s,5m,30m,2h,5h,10h,10h';

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3600_000 } as const;

/**
 * Parses `0,5s,5m,2h` (a bare number means seconds) into delays in ms, one per attempt: entry i is
 * the wait before attempt i+1. Throws on a malformed entry.
 */
export function parseRetrySchedule(text: string): number[] {
  const entries = text.split(',').map((e) => e.trim());
  return entries.map((entry) => {
    const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(entry);
    if (!m) throw new Error(`"${entry}" is not a delay like 0, 500ms, 5s, 5m or 2h`);
    return Math.round(Number(m[1]) * UNIT_MS[(m[2] ?? 's') as keyof typeof UNIT_MS]);
  });
}

/**
 * Old names still read in place of the new ones (each process that uses them warns once at start, naming the new one).
 */
const DEPRECATED_VARIABLES = {
  WEBHOOK_UNSAFE_ALLOW_LOOPBACK: 'OUTBOUND_UNSAFE_ALLOW_LOOPBACK',
  WEBHOOK_UNSAFE_CA_FILE: 'OUTBOUND_UNSAFE_CA_FILE',
} as const;

/**
 * The logger's variables, part of the config and also read on their own (loadLoggerConfigOrExit): every process logs,
 * render children included.
 */
const loggerEnvSchema = z.object({
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `service` field of every log line; `npm start` names each process it runs (video-api, video-worker…). */
  SERVICE_NAME: z.string().min(1).max(100).default('video-api'),
});

const envSchema = loggerEnvSchema
  .extend({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    /** HTTP port of the API. */
    PORT: port.default(8080),
    /** Interface the API binds to. */
    HOST: z.string().min(1).default('0.0.0.0'),
    /** Trust X-Forwarded-For/-Proto (set true only behind a reverse proxy that sets them). */
    TRUST_PROXY: z
      .enum(['true', 'false'])
      .default('false')
      .transform((v) => v === 'true'),
    /** Base URL clients use to reach the API (used in signed media URLs). Defaults to http://localhost:PORT. */
    PUBLIC_BASE_URL: z.url().optional(),
    /**
     * Origin media URLs use (local storage), e.g. https://media.example.com: a host without the
     * dashboard's cookies. When set, /media/* answers only on that host and nothing else does there.
     * Unset: media is served from PUBLIC_BASE_URL (still sandboxed; see README "Security model").
     */
    MEDIA_BASE_URL: z.url().optional(),
    /** Directory for embedded PostgreSQL, the Temporal SQLite file and stored media. */
    DATA_DIR: z.string().min(1).default('./data'),
    /** PostgreSQL server. Unset: `npm start` and `npm test` run an embedded PostgreSQL under DATA_DIR. */
    DATABASE_URL: z.url().optional(),
    /** Port of the embedded PostgreSQL started by `npm start` when DATABASE_URL is unset. */
    EMBEDDED_PG_PORT: port.default(5488),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
    /** Temporal frontend (host:port). Unset: 127.0.0.1:EMBEDDED_TEMPORAL_PORT, where `npm start` runs a dev server. */
    TEMPORAL_ADDRESS: z.string().min(1).optional(),
    /**
     * TLS to the Temporal frontend: `true` to use it with the system CAs; implied by any TEMPORAL_TLS_* file or
     * TEMPORAL_TLS_SERVER_NAME. `false` refuses those (plaintext, e.g. a private compose network).
     */
    TEMPORAL_TLS: flag.optional(),
    /** PEM file of the CA that signed the frontend's certificate (instead of the system CAs). */
    TEMPORAL_TLS_CA: z.string().min(1).optional(),
    /** PEM files of this process's client certificate and its key, for a frontend that requires mTLS (both or none). */
    TEMPORAL_TLS_CERT: z.string().min(1).optional(),
    TEMPORAL_TLS_KEY: z.string().min(1).optional(),
    /** The name the frontend's certificate must carry, when it is not TEMPORAL_ADDRESS's host. */
    TEMPORAL_TLS_SERVER_NAME: z.string().min(1).optional(),
    /** Sent as `Authorization: Bearer <key>` on every Temporal call (Temporal Cloud API keys, an authorizer). */
    TEMPORAL_API_KEY: z.string().min(1).optional(),
    /** Port of the Temporal dev server `npm start` runs when TEMPORAL_ADDRESS is unset. */
    EMBEDDED_TEMPORAL_PORT: port.default(7233),
    TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
    /** Web UI port of the dev server started by `npm start`. */
    TEMPORAL_UI_PORT: port.default(8233),
    /** Temporal CLI binary to use instead of the one found on PATH or built into the cache. */
    TEMPORAL_CLI_PATH: z.string().min(1).optional(),
    /** Where downloaded or built tools are cached (outside the checkout); read by src/tooling/install.mjs. */
    TOOLS_CACHE_DIR: z.string().min(1).optional(),
    /** Task queues this worker process serves: `io`, `render` or both (comma-separated). */
    WORKER_QUEUES: z
      .string()
      .default('io,render')
      .transform((v) => v.split(',').map((q) => q.trim()))
      .pipe(z.array(z.enum(['io', 'render'])).min(1)),
    /**
     * `true`: a worker composes and renders a tiny video with every engine before it says it is ready, so
     * the first generation after a start does not pay for cold engines (src/app/warmUp.ts).
     */
    WORKER_WARM_UP: z
      .enum(['true', 'false'])
      .default('true')
      .transform((v) => v === 'true'),
    /** Renders one worker runs at once (rendering is CPU-bound). */
    RENDER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(os.availableParallelism()),
    /** Port of a worker's own /metrics (prom-client); 0 picks a free port. */
    WORKER_METRICS_PORT: port.default(9464),
    /** host:port for the Temporal SDK's Prometheus exporter in workers (unset: off; `npm start` sets it). */
    TEMPORAL_METRICS_BIND: z
      .string()
      .regex(/^[\w.:[\]-]+:\d+$/, 'must be host:port')
      .optional(),
    /** How long a stopping API or worker waits for in-flight requests and activities. */
    SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).max(3600).default(30),
    FFMPEG_PATH: z.string().min(1).default('ffmpeg'),
    /** Wall-clock limit of one render; the render's child process is killed past it. */
    RENDER_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(600),
    /** x264 constant rate factor of every video (0–51; lower: better quality, larger files). README "Render cost". */
    RENDER_CRF: z.coerce.number().int().min(0).max(51).default(22),
    /**
     * Videos longer than this (seconds) render as chunks spread over the render workers (README "Chunked rendering").
     */
    RENDER_CHUNK_THRESHOLD_SECONDS: z.coerce.number().positive().max(3600).default(8),
    /** The shortest chunk (seconds): every chunk pays a fixed cost (render process, browser, page load, join). */
    RENDER_CHUNK_MIN_SECONDS: z.coerce.number().positive().max(3600).default(4),
    /** At most this many chunks per video, whatever the render slots; 1 turns chunking off. */
    RENDER_CHUNKS_MAX: z.coerce.number().int().min(1).max(64).default(16),
    /**
     * `on`: every render runs in bubblewrap namespaces (no network), as RENDER_USER when the worker is
     * root, with Chrome's own sandbox; the worker refuses to start if that is impossible. `off`: plain
     * child processes (development machines without bubblewrap). Limits and a minimal environment apply either way.
     */
    RENDER_SANDBOX: z.enum(['on', 'off']).default('on'),
    /**
     * Unprivileged user renders run as when the worker is root (created by src/tooling/install.mjs and the Dockerfile).
     */
    RENDER_USER: z
      .string()
      .regex(/^[a-z_][a-z0-9_-]*$/, 'must be a user name')
      .default('video-render'),
    /** Memory of one render, all its processes together (cgroup), in MiB. */
    RENDER_MEMORY_MB: z.coerce
      .number()
      .int()
      .min(256)
      .max(1024 * 1024)
      .default(3072),
    /** Processes and threads of one render together (cgroup pids). */
    RENDER_MAX_TASKS: z.coerce.number().int().min(64).max(1_000_000).default(1024),
    /** Largest file one render may write, in MiB. */
    RENDER_MAX_FILE_MB: z.coerce
      .number()
      .int()
      .min(1)
      .max(1024 * 1024)
      .default(4096),
    /** CPU time of one render, all its processes together, in seconds. */
    RENDER_CPU_SECONDS: z.coerce.number().int().min(1).max(1_000_000).default(1800),
    /** Where videos and artifacts are stored: `local` (under DATA_DIR/media, served by the API) or `s3`. */
    STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
    /** HMAC key of signed media URLs (local storage). Unset: generated once into DATA_DIR/media-url-secret. */
    MEDIA_URL_SECRET: z.string().min(32).optional(),
    /** Lifetime of a video or artifact URL, in seconds. */
    MEDIA_URL_TTL_SECONDS: z.coerce
      .number()
      .int()
      .min(60)
      .max(7 * 24 * 3600)
      .default(24 * 3600),
    S3_BUCKET: z.string().min(1).optional(),
    S3_REGION: z.string().min(1).default('us-east-1'),
    /** S3-compatible endpoint (MinIO, Ceph, R2…); unset: AWS. */
    S3_ENDPOINT: z.url().optional(),
    /**
     * Endpoint in the video URLs given to clients, when they reach the store by another name than the service does
     * (Docker networks). Unset: S3_ENDPOINT.
     */
    S3_PUBLIC_ENDPOINT: z.url().optional(),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    S3_FORCE_PATH_STYLE: z
      .enum(['true', 'false'])
      .default('false')
      .transform((v) => v === 'true'),
    /**
     * Extra engine modules (comma-separated paths), each exporting `engine` (an EngineModule): registered at start by
     * the API and the workers.
     */
    ENGINE_PLUGINS: z.string().optional(),
    /** Orchestration provider registry (JSON, format of src/providers/providers.json). Unset: that built-in file. */
    PROVIDERS_FILE: z.string().min(1).optional(),
    /** Rounds in which an invalid composition's findings go back to the LLM for a fix before the generation fails. */
    PROVIDER_REPAIR_ROUNDS: z.coerce.number().int().min(0).max(5).default(2),
    /** Speech provider registry (JSON, format of src/speech/speech-providers.json). Unset: that built-in file. */
    SPEECH_PROVIDERS_FILE: z.string().min(1).optional(),
    /** Waits before each webhook delivery attempt, comma-separated (bare numbers are seconds); ≈ 24 h by default. */
    WEBHOOK_RETRY_SCHEDULE: z
      .string()
      .default(DEFAULT_RETRY_SCHEDULE)
      .transform((v, ctx) => {
        try {
          return parseRetrySchedule(v);
        } catch (err) {
          ctx.addIssue({ code: 'custom', message: (err as Error).message });
          return z.NEVER;
        }
      })
      .pipe(
        z
          .array(
            z
              .number()
              .int()
              .min(0)
              .max(7 * 24 * 3600_000),
          )
          .min(1)
          .max(50),
      ),
    /** After a webhook secret rotation, how long the previous secret keeps signing next to the new one. */
    WEBHOOK_SECRET_GRACE_SECONDS: z.coerce
      .number()
      .int()
      .min(0)
      .max(30 * 24 * 3600)
      .default(24 * 3600),
    /**
     * UNSAFE, local testing only: lets outbound requests (webhooks, media URLs) go to loopback addresses (127.0.0.0/8,
     * ::1, localhost).
     */
    OUTBOUND_UNSAFE_ALLOW_LOOPBACK: flag.optional(),
    /**
     * UNSAFE, local testing only: PEM file of a CA or self-signed certificate trusted for outbound TLS (webhooks, media
     * URLs), besides the system CAs.
     */
    OUTBOUND_UNSAFE_CA_FILE: z.string().min(1).optional(),
    /** Deprecated name of OUTBOUND_UNSAFE_ALLOW_LOOPBACK, read when that is unset. */
    WEBHOOK_UNSAFE_ALLOW_LOOPBACK: flag.optional(),
    /** Deprecated name of OUTBOUND_UNSAFE_CA_FILE, read when that is unset. */
    WEBHOOK_UNSAFE_CA_FILE: z.string().min(1).optional(),
    /** Per-key request limit (interface section 8): requests per sliding window, shared by every API process. */
    RATE_LIMIT_PER_WINDOW: z.coerce.number().int().min(1).max(1_000_000).default(100),
    RATE_LIMIT_WINDOW_SECONDS: z.coerce
      .number()
      .positive()
      .max(24 * 3600)
      .default(60),
    /**
     * Requests per window from one client address that carry no valid key (on any /v1 route), counted before any body
     * is read.
     */
    RATE_LIMIT_UNAUTHENTICATED_PER_WINDOW: z.coerce.number().int().min(1).max(1_000_000).default(30),
    /**
     * Token that shows the backends' error text in /readyz to requests that are not from this machine
     * (`Authorization: Bearer <token>`). Unset: only local requests see it.
     */
    OPERATOR_TOKEN: z.string().min(32).optional(),
    /** `false` turns the limiter off (benchmarks). */
    RATE_LIMIT_ENABLED: z
      .enum(['true', 'false'])
      .default('true')
      .transform((v) => v === 'true'),
    /** Event streams open at once per API key (or dashboard member), across every API process. */
    STREAMS_PER_KEY: z.coerce.number().int().min(1).max(100_000).default(20),
    /** Event streams open at once per organization, across every API process. */
    STREAMS_PER_ORGANIZATION: z.coerce.number().int().min(1).max(100_000).default(100),
    /** API keys an organization may have (revoked ones count until deleted). */
    KEYS_PER_ORGANIZATION: z.coerce.number().int().min(1).max(100_000).default(50),
    /**
     * Media an organization may store, in MiB: request images, media URLs fetched for it, its logo.
     * Past it, requests that would store more are refused (`media_quota_exceeded`).
     */
    MEDIA_QUOTA_MB_PER_ORGANIZATION: z.coerce
      .number()
      .int()
      .min(1)
      .max(1024 * 1024 * 1024)
      .default(10 * 1024),
    /** Seconds between keep-alive comments on an idle event stream (proxies close silent connections). */
    STREAM_HEARTBEAT_SECONDS: z.coerce.number().positive().max(300).default(15),
    /**
     * Temporal Web UI base URL for the dashboard's per-generation workflow links. Unset:
     * http://localhost:TEMPORAL_UI_PORT when `npm start` runs the dev server, else no links.
     */
    TEMPORAL_UI_URL: z.url().optional(),
    /**
     * Secure flag of the dashboard session cookie: `auto` sets it when the request came over HTTPS (X-Forwarded-Proto
     * counts).
     */
    DASHBOARD_COOKIE_SECURE: z.enum(['auto', 'true', 'false']).default('auto'),
    /** A dashboard session ends after this long without a request… */
    DASHBOARD_SESSION_IDLE_MINUTES: z.coerce
      .number()
      .int()
      .min(1)
      .max(30 * 24 * 60)
      .default(120),
    /** …and this long after sign-in, however active. */
    DASHBOARD_SESSION_MAX_HOURS: z.coerce
      .number()
      .int()
      .min(1)
      .max(90 * 24)
      .default(12),
  })
  .superRefine((e, ctx) => {
    if (!e.TEMPORAL_TLS_CERT !== !e.TEMPORAL_TLS_KEY) {
      const missing = e.TEMPORAL_TLS_CERT ? 'TEMPORAL_TLS_KEY' : 'TEMPORAL_TLS_CERT';
      ctx.addIssue({ code: 'custom', path: [missing], message: 'TEMPORAL_TLS_CERT and TEMPORAL_TLS_KEY go together' });
    }
    const tlsFiles = ['TEMPORAL_TLS_CA', 'TEMPORAL_TLS_CERT', 'TEMPORAL_TLS_KEY', 'TEMPORAL_TLS_SERVER_NAME'] as const;
    for (const name of tlsFiles)
      if (e.TEMPORAL_TLS === false && e[name])
        ctx.addIssue({ code: 'custom', path: [name], message: 'set while TEMPORAL_TLS=false' });
    if (e.STORAGE_DRIVER === 's3' && !e.S3_BUCKET) {
      ctx.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: 'required when STORAGE_DRIVER=s3' });
    }
  });

export type Config = ReturnType<typeof loadConfig>;

/** Every environment variable of this file (the engines' own: src/engines/registry.ts engineVariables). */
export function configVariables(): string[] {
  return Object.keys(envSchema.shape);
}

export const EMBEDDED_DB_NAME = 'video';

export class ConfigError extends Error {}

function parseEnv<T extends z.ZodType>(schema: T, env: NodeJS.ProcessEnv): z.output<T> {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid environment:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const e = parseEnv(envSchema, env);
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    trustProxy: e.TRUST_PROXY,
    publicBaseUrl: (e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    mediaBaseUrl: e.MEDIA_BASE_URL?.replace(/\/+$/, ''),
    dataDir: path.resolve(e.DATA_DIR),
    /** DATABASE_URL, else the embedded server that `npm start` runs on EMBEDDED_PG_PORT. */
    databaseUrl: e.DATABASE_URL ?? `postgres://postgres:postgres@127.0.0.1:${e.EMBEDDED_PG_PORT}/${EMBEDDED_DB_NAME}`,
    embeddedDatabase: e.DATABASE_URL === undefined,
    embeddedPgPort: e.EMBEDDED_PG_PORT,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    temporal: {
      address: e.TEMPORAL_ADDRESS ?? `127.0.0.1:${e.EMBEDDED_TEMPORAL_PORT}`,
      namespace: e.TEMPORAL_NAMESPACE,
      uiPort: e.TEMPORAL_UI_PORT,
      cliPath: e.TEMPORAL_CLI_PATH,
      /** Null: plaintext. Paths of PEM files (read when connecting: src/temporal/connection.ts). */
      tls:
        (e.TEMPORAL_TLS ??
        Boolean(e.TEMPORAL_TLS_CA || e.TEMPORAL_TLS_CERT || e.TEMPORAL_TLS_KEY || e.TEMPORAL_TLS_SERVER_NAME))
          ? {
              caFile: e.TEMPORAL_TLS_CA,
              certFile: e.TEMPORAL_TLS_CERT,
              keyFile: e.TEMPORAL_TLS_KEY,
              serverName: e.TEMPORAL_TLS_SERVER_NAME,
            }
          : null,
      apiKey: e.TEMPORAL_API_KEY,
    },
    workerQueues: e.WORKER_QUEUES,
    workerWarmUp: e.WORKER_WARM_UP,
    renderConcurrency: e.RENDER_CONCURRENCY,
    workerMetricsPort: e.WORKER_METRICS_PORT,
    temporalMetricsBind: e.TEMPORAL_METRICS_BIND,
    shutdownGraceMs: e.SHUTDOWN_GRACE_SECONDS * 1000,
    render: {
      ffmpegPath: e.FFMPEG_PATH,
      timeoutMs: e.RENDER_TIMEOUT_SECONDS * 1000,
      sandbox: {
        mode: e.RENDER_SANDBOX,
        user: e.RENDER_USER,
        memoryBytes: e.RENDER_MEMORY_MB * 2 ** 20,
        maxTasks: e.RENDER_MAX_TASKS,
        maxFileBytes: e.RENDER_MAX_FILE_MB * 2 ** 20,
        cpuSeconds: e.RENDER_CPU_SECONDS,
        hiddenDirs: [path.resolve(e.DATA_DIR)],
      },
      crf: e.RENDER_CRF,
    },
    renderChunks: {
      thresholdSeconds: e.RENDER_CHUNK_THRESHOLD_SECONDS,
      minChunkSeconds: e.RENDER_CHUNK_MIN_SECONDS,
      maxChunks: e.RENDER_CHUNKS_MAX,
    },
    storage: {
      driver: e.STORAGE_DRIVER,
      mediaUrlSecret: e.MEDIA_URL_SECRET,
      urlTtlSeconds: e.MEDIA_URL_TTL_SECONDS,
      s3: {
        bucket: e.S3_BUCKET,
        region: e.S3_REGION,
        endpoint: e.S3_ENDPOINT,
        publicEndpoint: e.S3_PUBLIC_ENDPOINT,
        accessKeyId: e.S3_ACCESS_KEY_ID,
        secretAccessKey: e.S3_SECRET_ACCESS_KEY,
        forcePathStyle: e.S3_FORCE_PATH_STYLE,
      },
    },
    webhooks: {
      retryScheduleMs: e.WEBHOOK_RETRY_SCHEDULE,
      secretGraceSeconds: e.WEBHOOK_SECRET_GRACE_SECONDS,
    },
    /** Every request the service makes to a URL it was given (webhooks, media): src/outbound/. */
    outbound: {
      unsafeAllowLoopback: e.OUTBOUND_UNSAFE_ALLOW_LOOPBACK ?? e.WEBHOOK_UNSAFE_ALLOW_LOOPBACK ?? false,
      unsafeCaFile: e.OUTBOUND_UNSAFE_CA_FILE ?? e.WEBHOOK_UNSAFE_CA_FILE,
    },
    /** One line per deprecated variable set, naming its replacement: the API and the worker log them at start. */
    deprecations: Object.entries(DEPRECATED_VARIABLES)
      .filter(([old]) => env[old] !== undefined)
      .map(([old, replacement]) => `${old} is deprecated: set ${replacement} instead (same meaning)`),
    dashboard: {
      cookieSecure: e.DASHBOARD_COOKIE_SECURE,
      sessionIdleSeconds: e.DASHBOARD_SESSION_IDLE_MINUTES * 60,
      sessionMaxSeconds: e.DASHBOARD_SESSION_MAX_HOURS * 3600,
      /** Base URL of the Temporal Web UI, or null (no workflow links). */
      temporalUiUrl: e.TEMPORAL_UI_URL?.replace(/\/+$/, '') ?? null,
    },
    streamHeartbeatMs: e.STREAM_HEARTBEAT_SECONDS * 1000,
    streamCaps: { perHolder: e.STREAMS_PER_KEY, perOrganization: e.STREAMS_PER_ORGANIZATION },
    keysPerOrganization: e.KEYS_PER_ORGANIZATION,
    mediaQuotaBytesPerOrganization: e.MEDIA_QUOTA_MB_PER_ORGANIZATION * 2 ** 20,
    operatorToken: e.OPERATOR_TOKEN,
    rateLimit: {
      enabled: e.RATE_LIMIT_ENABLED,
      perWindow: e.RATE_LIMIT_PER_WINDOW,
      windowSeconds: e.RATE_LIMIT_WINDOW_SECONDS,
      unauthenticatedPerWindow: e.RATE_LIMIT_UNAUTHENTICATED_PER_WINDOW,
    },
    /** Absolute paths of plug-in engine modules (src/engines/registry.ts `registerEnginePlugins`). */
    enginePlugins: (e.ENGINE_PLUGINS ?? '')
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)
      .map((p) => path.resolve(p)),
    speech: {
      file: e.SPEECH_PROVIDERS_FILE ? path.resolve(e.SPEECH_PROVIDERS_FILE) : undefined,
    },
    providers: {
      file: e.PROVIDERS_FILE ? path.resolve(e.PROVIDERS_FILE) : undefined,
      repairRounds: e.PROVIDER_REPAIR_ROUNDS,
      /** Reads the API key variables the registry file names (chosen there, so not listed here). */
      secret: (name: string): string | undefined => env[name] || undefined,
    },
    /** True when TEMPORAL_ADDRESS was not given: `npm start` runs its own dev server there. */
    embeddedTemporal: env.TEMPORAL_ADDRESS === undefined,
    /**
     * Variables declared outside this file (each engine's settings, read by src/engines/registry.ts),
     * from the same environment with the same checks: a bad value throws ConfigError naming it.
     */
    readVariables: <T extends z.ZodObject>(variables: T): z.output<T> => parseEnv(variables, env),
  };
}

/** For process entry points: load the config or exit with the message naming the bad variable. */
export const loadConfigOrExit = (env: NodeJS.ProcessEnv = process.env): Config =>
  exitOnConfigError(() => loadConfig(env));

/** The logger's settings alone (the logger is made as a process starts), or exit like loadConfigOrExit. */
export function loadLoggerConfigOrExit(env: NodeJS.ProcessEnv = process.env) {
  const e = exitOnConfigError(() => parseEnv(loggerEnvSchema, env));
  return { level: e.LOG_LEVEL, serviceName: e.SERVICE_NAME };
}

/**
 * For process entry points: runs a read of the config (readVariables included); a ConfigError prints its message and
 * exits.
 */
export function exitOnConfigError<T>(load: () => T): T {
  try {
    return load();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
}
