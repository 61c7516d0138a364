import { plainToInstance, Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUrl, Max, MaxLength, Min, MinLength, validateSync } from 'class-validator';

import { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule } from '../modules/webhooks/domain/retry-schedule';

const int = () => Transform(({ value }: { value: unknown }) => (typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value));
const bool = () =>
  Transform(({ value }: { value: unknown }) => (value === 'true' || value === '1' ? true : value === 'false' || value === '0' || value === '' ? false : value));

/** Shortest API_KEY accepted. */
export const API_KEY_MIN_LENGTH = 32;

/** Environment variables as the process receives them; validated once at start. */
class Env {
  @int() @IsOptional() @IsInt() @Min(0) @Max(65535) PORT?: number;
  @IsOptional() @IsString() @MaxLength(255) HOST?: string;
  @IsOptional() @IsString() CORS_ORIGINS?: string;
  @IsOptional() @IsString() DATABASE_URL?: string;
  @IsOptional() @IsString() DATABASE_REPLICA_URLS?: string;
  @IsOptional() @IsString() DATA_DIR?: string;
  @bool() @IsOptional() @IsBoolean() SEED_DEMO?: boolean;
  @IsOptional() @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] }) PUBLIC_URL?: string;
  // The first 12 characters are stored as the key's lookup prefix: a short key would be stored almost whole.
  @IsOptional()
  @IsString()
  @MinLength(API_KEY_MIN_LENGTH, {
    message: `must be at least ${API_KEY_MIN_LENGTH} characters (its first 12 are stored as a lookup prefix); generate one with: openssl rand -base64 32`,
  })
  @MaxLength(200, { message: 'must be at most 200 characters' })
  API_KEY?: string;
  @int() @IsOptional() @IsInt() @Min(0) @Max(8760) API_KEY_ROTATION_GRACE_HOURS?: number;
  @int() @IsOptional() @IsInt() @Min(0) @Max(64) WORKERS?: number;
  @bool() @IsOptional() @IsBoolean() WORKERS_ONLY?: boolean;
  @int() @IsOptional() @IsInt() @Min(0) @Max(3650) LEAD_DUPLICATE_WINDOW_DAYS?: number;
  @int() @IsOptional() @IsInt() @Min(1) @Max(3650) EVENT_RETENTION_DAYS?: number;
  @IsOptional() @IsUrl({ require_tld: false }) TELEPHONY_PLATFORM_URL?: string;
  @IsOptional() @IsUrl({ require_tld: false }) SPEECH_PLATFORM_URL?: string;
  @int() @IsOptional() @IsInt() @Min(50) @Max(60000) HEALTH_CHECK_TIMEOUT_MS?: number;
  @IsOptional() @IsIn(['text', 'json']) LOG_FORMAT?: string;
  @IsOptional() @IsIn(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']) LOG_LEVEL?: string;
  @int() @IsOptional() @IsInt() @Min(0) @Max(60000) API_KEY_CACHE_TTL_MS?: number;
  @int() @IsOptional() @IsInt() @Min(1) @Max(200) DB_POOL_SIZE?: number;
  @int() @IsOptional() @IsInt() @Min(1) @Max(200) WORKER_DB_POOL_SIZE?: number;
  @int() @IsOptional() @IsInt() @Min(0) @Max(3_600_000) DB_STATEMENT_TIMEOUT_MS?: number;
  @int() @IsOptional() @IsInt() @Min(0) @Max(3_600_000) DB_LOCK_TIMEOUT_MS?: number;
  @int() @IsOptional() @IsInt() @Min(0) @Max(60000) ORDER_SETTINGS_CACHE_TTL_MS?: number;
  @int() @IsOptional() @IsInt() @Min(0) @Max(60000) REFERENCE_CACHE_TTL_MS?: number;
  @int() @IsOptional() @IsInt() @Min(100) @Max(60000) DNC_EXPIRY_SWEEP_MS?: number;
  @int() @IsOptional() @IsInt() @Min(1) @Max(86400) JOB_EXPIRE_SECONDS?: number;
  @int() @IsOptional() @IsInt() @Min(1) @Max(3600) JOB_SUPERVISE_INTERVAL_SECONDS?: number;
  @IsOptional() @IsString() SMTP_URL?: string;
  @IsOptional() @IsString() NOTIFICATION_EMAIL_FROM?: string;
  @IsOptional() @IsUrl({ require_tld: false }) MESSENGER_BOT_URL?: string;
  @int() @IsOptional() @IsInt() @Min(0) @Max(20) NOTIFICATION_RETRY_LIMIT?: number;
  @int() @IsOptional() @IsInt() @Min(1) @Max(3600) NOTIFICATION_RETRY_DELAY_SECONDS?: number;
  @int() @IsOptional() @IsInt() @Min(0) @Max(1_000_000) RATE_LIMIT_REQUESTS?: number;
  @int() @IsOptional() @IsInt() @Min(1) @Max(86400) RATE_LIMIT_WINDOW_SECONDS?: number;
  @bool() @IsOptional() @IsBoolean() METRICS_ENABLED?: boolean;
  @bool() @IsOptional() @IsBoolean() ACCESS_LOG?: boolean;
  @bool() @IsOptional() @IsBoolean() WEBHOOK_ALLOW_HTTP?: boolean;
  @bool() @IsOptional() @IsBoolean() WEBHOOK_ALLOW_PRIVATE_NETWORKS?: boolean;
  @IsOptional() @IsString() @MaxLength(1000) WEBHOOK_RETRY_SCHEDULE?: string;
  @int() @IsOptional() @IsInt() @Min(100) @Max(60000) WEBHOOK_TIMEOUT_MS?: number;
  @int() @IsOptional() @IsInt() @Min(1) @Max(500) WEBHOOK_CONCURRENCY?: number;
  @int() @IsOptional() @IsInt() @Min(10) @Max(60000) WEBHOOK_POLL_INTERVAL_MS?: number;
  @int() @IsOptional() @IsInt() @Min(1) @Max(8760) WEBHOOK_DISABLE_AFTER_FAILING_HOURS?: number;
  @int() @IsOptional() @IsInt() @Min(0) @Max(600) SHUTDOWN_DRAIN_SECONDS?: number;
  @int() @IsOptional() @IsInt() @Min(1) @Max(3600) SHUTDOWN_TIMEOUT_SECONDS?: number;
  @int() @IsOptional() @IsInt() @Min(1) @Max(3600) HTTP_KEEP_ALIVE_SECONDS?: number;
}

export interface AppConfig {
  port: number;
  /**
   * Address the HTTP server (or a worker's probes) binds. 127.0.0.1 by default: a development start prints an all-scopes key,
   * and its API stays on this machine; the Docker image sets 0.0.0.0 to be reached from outside the container.
   */
  host: string;
  /** Origins allowed by CORS; empty = CORS off (no Access-Control-* headers), as API clients are servers. */
  corsOrigins: string[];
  databaseUrl?: string;
  /** Read replicas for lag-tolerant reads (lead and call lists); empty = read from the primary. */
  databaseReplicaUrls: string[];
  dataDir: string;
  seedDemo: boolean;
  /** The URL integrators reach the API at (behind a proxy or load balancer), named in the OpenAPI document's `servers`. */
  publicUrl?: string;
  apiKey?: string;
  /** After API_KEY changes, how long the previous API_KEY keeps authenticating; 0 = revoked at once. */
  apiKeyRotationGraceHours: number;
  /** Concurrent job workers in this process; 0 = API-only instance. */
  workers: number;
  /** Worker-only instance: runs jobs; on PORT it serves only the container probes (/health/live, /health/ready). */
  workersOnly: boolean;
  leadDuplicateWindowDays: number;
  /** How long events stay readable in the feed (GET /v2/event/); older ones are deleted and an `after` before them is a 410. */
  eventRetentionDays: number;
  telephonyPlatformUrl?: string;
  speechPlatformUrl?: string;
  healthCheckTimeoutMs: number;
  /** `text` (default on a terminal): one readable line per event; `json` (default otherwise): pino's JSON lines. */
  logFormat: 'text' | 'json';
  /** pino level; Nest's start-up chatter (modules, route mapping) is at `debug`. */
  logLevel: string;
  apiKeyCacheTtlMs: number;
  dbPoolSize: number;
  /** Connections of the job workers' own pool (lead.create handlers), apart from the HTTP pool. */
  workerDbPoolSize: number;
  /** Server-side bound on every statement of the service's pools (not migrations); 0 = none. */
  dbStatementTimeoutMs: number;
  /** Server-side bound on every lock wait of the service's pools (not migrations); 0 = none. */
  dbLockTimeoutMs: number;
  /** How long an order's settings may be served from this instance's cache; 0 = no cache. */
  orderSettingsCacheTtlMs: number;
  /** How often each instance applies expired do-not-call entries (plans the leads they held); at most 60 s. */
  dncExpirySweepMs: number;
  /** How long custom field definitions and the lead status catalogue may be served from this instance's cache; 0 = no cache. */
  referenceCacheTtlMs: number;
  /** How long a lead.create job may stay active before pg-boss retries it (a worker that died or lost the database). */
  jobExpireSeconds: number;
  /** How often pg-boss looks for expired or silent jobs (and refreshes queue statistics). */
  jobSuperviseIntervalSeconds: number;
  smtpUrl?: string;
  notificationEmailFrom: string;
  messengerBotUrl?: string;
  /** Retries of a failed e-mail/messenger delivery before it is marked failed. */
  notificationRetryLimit: number;
  /** First retry delay; later ones back off exponentially. */
  notificationRetryDelaySeconds: number;
  /** Requests one API key may make per window, across all instances; 0 = no limit. */
  rateLimitRequests: number;
  rateLimitWindowSeconds: number;
  /** Time every HTTP request for `GET /metrics` (the endpoint itself is always there). */
  metricsEnabled: boolean;
  /** One log line per request (method, path, status, duration, key id, request id). */
  accessLog: boolean;
  /** Webhooks may use http: URLs (tests, local setups); otherwise https only. */
  webhookAllowHttp: boolean;
  /** Webhooks may reach loopback, private, link-local, ... addresses (tests, local setups). */
  webhookAllowPrivateNetworks: boolean;
  /** Waits before each retry of a failed delivery (ms); when used up the delivery is `failed`. */
  webhookRetryScheduleMs: number[];
  /** A delivery attempt not answered 2xx within this is a failure. */
  webhookTimeoutMs: number;
  /** Deliveries in flight at once per instance. */
  webhookConcurrency: number;
  /** How often an idle instance looks for new events and due deliveries. */
  webhookPollIntervalMs: number;
  /** A webhook whose deliveries have failed without a success for this long is disabled. */
  webhookDisableAfterFailingHours: number;
  /** After SIGTERM/SIGINT: how long the instance keeps serving, answering not-ready, before it stops accepting. */
  shutdownDrainSeconds: number;
  /** After SIGTERM/SIGINT: the whole shutdown's bound; past it the process exits 1. */
  shutdownTimeoutSeconds: number;
  /**
   * How long an idle keep-alive connection stays open. Longer than a balancer keeps its idle
   * connections to the instance, so the balancer closes them, never the instance while the
   * balancer reuses one (HAProxy then drops the client's connection without an answer).
   */
  httpKeepAliveSeconds: number;
}

export class ConfigError extends Error {}

/** Never echoed in the start-up error: the value is a secret (or holds one). */
const SECRET_VARIABLES = new Set(['API_KEY', 'DATABASE_URL', 'DATABASE_REPLICA_URLS', 'SMTP_URL', 'MESSENGER_BOT_URL']);

/** Reads and validates the environment; the error names every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const { parsed, raw } = validatedEnv(env);
  const config = withDefaults(parsed, webhookRetrySchedule(parsed, raw));
  if (config.shutdownDrainSeconds >= config.shutdownTimeoutSeconds) {
    throw new ConfigError(
      `Invalid configuration:\n  SHUTDOWN_DRAIN_SECONDS=${config.shutdownDrainSeconds}: must be less than SHUTDOWN_TIMEOUT_SECONDS (${config.shutdownTimeoutSeconds})`,
    );
  }
  return config;
}

/** The set variables (an empty one counts as unset), converted and validated; a ConfigError lists every bad one. */
function validatedEnv(env: NodeJS.ProcessEnv): { parsed: Env; raw: Record<string, string> } {
  const raw: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && v !== '') raw[k] = v;
  const parsed = plainToInstance(Env, raw, { excludeExtraneousValues: false });
  const errors = validateSync(parsed, { skipMissingProperties: false, whitelist: false });
  if (errors.length > 0) {
    const lines = errors.map((e) => {
      const shown = SECRET_VARIABLES.has(e.property) ? '(hidden)' : JSON.stringify(raw[e.property]);
      return `${e.property}=${shown}: ${Object.values(e.constraints ?? {}).join(', ')}`;
    });
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  return { parsed, raw };
}

function webhookRetrySchedule(parsed: Env, raw: Record<string, string>): number[] {
  const schedule = parseRetrySchedule(parsed.WEBHOOK_RETRY_SCHEDULE ?? DEFAULT_RETRY_SCHEDULE);
  if (!schedule.ok)
    throw new ConfigError(`Invalid configuration:\n  WEBHOOK_RETRY_SCHEDULE=${JSON.stringify(raw.WEBHOOK_RETRY_SCHEDULE)}: ${schedule.errors.join('; ')}`);
  return schedule.value;
}

/** `a, b,,c` → `['a', 'b', 'c']`; unset → `[]`. */
function commaList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
}

/** The configuration from validated variables, each unset one at its default. */
function withDefaults(parsed: Env, retrySchedule: number[]): AppConfig {
  return {
    port: parsed.PORT ?? 3000,
    host: parsed.HOST ?? '127.0.0.1',
    corsOrigins: commaList(parsed.CORS_ORIGINS),
    databaseUrl: parsed.DATABASE_URL,
    databaseReplicaUrls: commaList(parsed.DATABASE_REPLICA_URLS),
    dataDir: parsed.DATA_DIR ?? './data',
    seedDemo: parsed.SEED_DEMO ?? false,
    publicUrl: parsed.PUBLIC_URL?.replace(/\/+$/, '') || undefined,
    apiKey: parsed.API_KEY,
    apiKeyRotationGraceHours: parsed.API_KEY_ROTATION_GRACE_HOURS ?? 24,
    workers: parsed.WORKERS ?? 2,
    workersOnly: parsed.WORKERS_ONLY ?? false,
    leadDuplicateWindowDays: parsed.LEAD_DUPLICATE_WINDOW_DAYS ?? 30,
    eventRetentionDays: parsed.EVENT_RETENTION_DAYS ?? 30,
    telephonyPlatformUrl: parsed.TELEPHONY_PLATFORM_URL,
    speechPlatformUrl: parsed.SPEECH_PLATFORM_URL,
    healthCheckTimeoutMs: parsed.HEALTH_CHECK_TIMEOUT_MS ?? 2000,
    logFormat: (parsed.LOG_FORMAT as 'text' | 'json' | undefined) ?? (process.stdout.isTTY === true ? 'text' : 'json'),
    logLevel: parsed.LOG_LEVEL ?? 'info',
    apiKeyCacheTtlMs: parsed.API_KEY_CACHE_TTL_MS ?? 5000,
    dbPoolSize: parsed.DB_POOL_SIZE ?? 10,
    workerDbPoolSize: parsed.WORKER_DB_POOL_SIZE ?? 4,
    dbStatementTimeoutMs: parsed.DB_STATEMENT_TIMEOUT_MS ?? 15_000,
    dbLockTimeoutMs: parsed.DB_LOCK_TIMEOUT_MS ?? 5_000,
    orderSettingsCacheTtlMs: parsed.ORDER_SETTINGS_CACHE_TTL_MS ?? 5000,
    referenceCacheTtlMs: parsed.REFERENCE_CACHE_TTL_MS ?? 5000,
    dncExpirySweepMs: parsed.DNC_EXPIRY_SWEEP_MS ?? 20_000,
    jobExpireSeconds: parsed.JOB_EXPIRE_SECONDS ?? 60,
    jobSuperviseIntervalSeconds: parsed.JOB_SUPERVISE_INTERVAL_SECONDS ?? 5,
    smtpUrl: parsed.SMTP_URL,
    notificationEmailFrom: parsed.NOTIFICATION_EMAIL_FROM ?? 'Call center <no-reply@callcenter.local>',
    messengerBotUrl: parsed.MESSENGER_BOT_URL,
    notificationRetryLimit: parsed.NOTIFICATION_RETRY_LIMIT ?? 5,
    notificationRetryDelaySeconds: parsed.NOTIFICATION_RETRY_DELAY_SECONDS ?? 2,
    rateLimitRequests: parsed.RATE_LIMIT_REQUESTS ?? 0,
    rateLimitWindowSeconds: parsed.RATE_LIMIT_WINDOW_SECONDS ?? 60,
    metricsEnabled: parsed.METRICS_ENABLED ?? true,
    accessLog: parsed.ACCESS_LOG ?? true,
    webhookAllowHttp: parsed.WEBHOOK_ALLOW_HTTP ?? false,
    webhookAllowPrivateNetworks: parsed.WEBHOOK_ALLOW_PRIVATE_NETWORKS ?? false,
    webhookRetryScheduleMs: retrySchedule,
    webhookTimeoutMs: parsed.WEBHOOK_TIMEOUT_MS ?? 10_000,
    webhookConcurrency: parsed.WEBHOOK_CONCURRENCY ?? 32,
    webhookPollIntervalMs: parsed.WEBHOOK_POLL_INTERVAL_MS ?? 500,
    webhookDisableAfterFailingHours: parsed.WEBHOOK_DISABLE_AFTER_FAILING_HOURS ?? 120,
    shutdownDrainSeconds: parsed.SHUTDOWN_DRAIN_SECONDS ?? 5,
    shutdownTimeoutSeconds: parsed.SHUTDOWN_TIMEOUT_SECONDS ?? 30,
    httpKeepAliveSeconds: parsed.HTTP_KEEP_ALIVE_SECONDS ?? 65,
  };
}

export const APP_CONFIG = Symbol('APP_CONFIG');
