import http from 'node:http';

export interface HttpResult {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Parsed JSON when the body is JSON, else the text. */
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  ms: number;
  /** Sent a second time by this client (an idempotent request whose reused keep-alive socket was reset). */
  resent?: boolean;
}

export interface RequestOptions {
  /** An object is sent as JSON; a Buffer as is (pre-serialised hostile bodies). */
  body?: unknown;
  headers?: Record<string, string>;
  timeoutMs?: number;
  noKey?: boolean;
}

/** Methods a client may send again when the connection failed before an answer. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
const IDLE_SOCKET_MS = 4000;

/** A connection-level failure (refused, reset, timed out): the client saw no HTTP answer. */
export class ConnectionError extends Error {
  resent = false;

  constructor(
    readonly code: string,
    readonly reusedSocket = false,
  ) {
    super(`connection error: ${code}`);
  }
}

/** Plain node:http with a keep-alive agent: the suite controls connections, timeouts and bodies. */
export class HttpClient {
  private readonly agent: http.Agent;

  constructor(
    readonly baseUrl: string,
    private readonly apiKey: string,
    maxSockets = 64,
  ) {
    // Idle sockets are dropped before a server or balancer closes them (Node's 5 s, HAProxy's 10 s here).
    this.agent = new http.Agent({ keepAlive: true, maxSockets, timeout: IDLE_SOCKET_MS });
  }

  async request(method: string, path: string, o: RequestOptions = {}): Promise<HttpResult> {
    try {
      return await this.once(method, path, o);
    } catch (err) {
      // A reset reused socket may be an idle close, or a proxy closing a kept-alive client after the request reached
      // an instance that died (HAProxy sends no 502 then). Only an idempotent method may go again (RFC 9110, 9.2.2).
      if (err instanceof ConnectionError && err.code === 'ECONNRESET' && err.reusedSocket && IDEMPOTENT.has(method)) {
        return this.once(method, path, o).then(
          (r) => ({ ...r, resent: true }),
          (e: unknown) => {
            if (e instanceof ConnectionError) e.resent = true;
            throw e;
          },
        );
      }
      throw err;
    }
  }

  private once(method: string, path: string, o: RequestOptions): Promise<HttpResult> {
    const payload = o.body === undefined ? undefined : Buffer.isBuffer(o.body) ? o.body : Buffer.from(JSON.stringify(o.body));
    const headers: Record<string, string> = { ...o.headers };
    if (!o.noKey) headers['X-Api-Key'] = this.apiKey;
    if (payload) {
      headers['Content-Type'] = 'application/json';
      headers['Content-Length'] = String(payload.length);
    }
    const started = performance.now();
    return new Promise((resolve, reject) => {
      const req = http.request(`${this.baseUrl}${path}`, { method, headers, agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (e: NodeJS.ErrnoException) => reject(new ConnectionError(e.code ?? 'ERESPONSE')));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = text ? JSON.parse(text) : null;
          } catch {
            /* not JSON */
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, ms: performance.now() - started });
        });
      });
      req.setTimeout(o.timeoutMs ?? 30_000, () => req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })));
      req.on('error', (e: NodeJS.ErrnoException) => reject(new ConnectionError(e.code ?? 'EUNKNOWN', req.reusedSocket)));
      req.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
