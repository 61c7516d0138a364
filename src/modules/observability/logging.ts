import type { IncomingMessage, ServerResponse } from 'node:http';
import { Logger as PinoNestLogger, type Params, PinoLogger } from 'nestjs-pino';
import pino, { type DestinationStream } from 'pino';
import { assignRequestId } from '../../common/request-id';
import type { AppConfig } from '../../config/app.config';

/**
 * Never in a log line, whatever a caller passes: key material, credentials and bodies (which
 * carry customers' phones and names). The serializers below already leave headers and bodies
 * out of `req`; this is the net for objects logged by hand.
 */
const REDACTED_PATHS = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers["x-api-key"]',
  'headers.authorization',
  'headers.cookie',
  'req.body',
  'body',
  '*.body',
];

/** Nest's start-up chatter (one line per module and per route): useful when debugging, noise otherwise. */
const START_CHATTER = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestApplication']);

/** Fields of a pino line that the text format shows in its fixed part. */
const TEXT_FIXED = new Set(['level', 'time', 'msg', 'context', 'requestId']);

/**
 * LOG_FORMAT=text: one plain line per event (`time LEVEL [context] message k=v requestId=...`),
 * no colours, so a terminal, a file and a container log read the same.
 */
export function textLine(json: string): string {
  const entry = JSON.parse(json) as Record<string, unknown>;
  const textOf = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));
  const extra = Object.entries(entry)
    .filter(([k]) => !TEXT_FIXED.has(k))
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  if (entry.requestId) extra.push(`requestId=${textOf(entry.requestId)}`);
  const context = entry.context ? ` [${textOf(entry.context)}]` : '';
  const level = String(entry.level).toUpperCase().padEnd(5);
  return `${String(entry.time)} ${level}${context} ${textOf(entry.msg ?? '')}${extra.length ? ` ${extra.join(' ')}` : ''}\n`;
}

/** Standard output, looked up per line (not captured once) so the process's stdout is what it is at the time. */
function stdoutDestination(format: AppConfig['logFormat']): DestinationStream {
  return { write: (line: string) => void process.stdout.write(format === 'text' ? textLine(line) : line) };
}

const built = new WeakMap<AppConfig, Params>();
const roots = new WeakMap<AppConfig, pino.Logger>();

/** What a request logger stands for until something logs: the process's pino and the request's id. */
interface PendingRequestLogger {
  root: pino.Logger;
  requestId: string;
  child?: pino.Logger;
}

function materialise(p: PendingRequestLogger): pino.Logger {
  return (p.child ??= p.root.child({ requestId: p.requestId }));
}

/** One handler for every request logger (no closures per request): each access goes to the real child. */
const LAZY_CHILD: ProxyHandler<PendingRequestLogger> = {
  get(p, prop) {
    const child = materialise(p);
    const value: unknown = Reflect.get(child, prop, child);
    return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(child) : value;
  },
  set: (p, prop, value) => Reflect.set(materialise(p), prop, value),
  has: (p, prop) => Reflect.has(materialise(p), prop),
};

/**
 * The logger of one request, bound to its id. pino's child is made on the first line, so a request that logs nothing (nearly all)
 * pays for no child logger, whose serialised bindings would be the largest framework cost of a lead read. Installed as `req.log` by
 * the request observer; nestjs-pino binds it to the request's async context (`useExisting` below), where every `Logger` finds it.
 */
export function requestLogger(config: AppConfig, requestId: string): pino.Logger {
  const root = roots.get(config) ?? (loggerParams(config), roots.get(config)!);
  return new Proxy<PendingRequestLogger>({ root, requestId }, LAZY_CHILD) as unknown as pino.Logger;
}

/**
 * The pino logger and pino-http settings of the process, one per configuration: LoggerModule
 * and the logger main.ts installs before the application exists share the same pino instance.
 */
export function loggerParams(config: AppConfig): Params {
  const existing = built.get(config);
  if (existing) return existing;
  const logger = pino(
    {
      level: config.logLevel,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      serializers: {
        // Method and path only: query values and headers can be personal or secret.
        req: (req: IncomingMessage) => ({ method: req.method, path: loggedPath(req.url ?? '') }),
        res: (res: ServerResponse) => ({ status: res.statusCode }),
      },
    },
    stdoutDestination(config.logFormat),
  );
  roots.set(config, logger);
  const params: Params = {
    // The request logger is the observer's (requestLogger above), not pino-http's middleware.
    useExisting: true,
    pinoHttp: {
      logger,
      // The service's own request id (X-Request-Id), bound as `requestId` to every line of the request.
      genReqId: (req, res) => assignRequestId(req, res),
      customAttributeKeys: { reqId: 'requestId' },
      quietReqLogger: true,
      // The request observer writes the access line (also for requests refused before Nest's middleware).
      autoLogging: false,
    },
  };
  built.set(config, params);
  return params;
}

/**
 * Nest's logger interface over pino (every `new Logger(...)` of the service ends here): Nest's
 * start-up chatter goes to `debug`, and a field the request context already binds is not written twice.
 */
export class AppLogger extends PinoNestLogger {
  override log(message: unknown, ...params: unknown[]): void {
    const context = params[params.length - 1];
    if (typeof context === 'string' && START_CHATTER.has(context)) return this.debug(message, ...params);
    super.log(this.withoutBound(message), ...params);
  }

  private withoutBound(message: unknown): unknown {
    if (typeof message !== 'object' || message === null || !('requestId' in message)) return message;
    const bound = this.logger.logger.bindings() as { requestId?: unknown };
    if (bound.requestId !== (message as { requestId?: unknown }).requestId) return message;
    const { requestId: _bound, ...rest } = message as Record<string, unknown>;
    return rest;
  }
}

/** The process's logger, before and after the Nest application exists (it shares LoggerModule's pino instance). */
export function createAppLogger(params: Params): AppLogger {
  return new AppLogger(new PinoLogger(params), params);
}

/**
 * The path as logged: query values can be personal data (`?phone=...`, `externalIdCrmA=...`),
 * so only the parameter names are kept (`/v2/lead/?phone=&limit=`).
 */
export function loggedPath(originalUrl: string): string {
  const at = originalUrl.indexOf('?');
  if (at < 0) return originalUrl;
  const names = originalUrl
    .slice(at + 1)
    .split('&')
    .filter(Boolean)
    .slice(0, 20)
    .map((pair) => `${pair.split('=')[0].slice(0, 40)}=`);
  return `${originalUrl.slice(0, at)}?${names.join('&')}`;
}
