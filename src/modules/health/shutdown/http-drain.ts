import type { IncomingMessage, Server, ServerResponse } from 'node:http';

const IDLE_SWEEP_MS = 100;

/**
 * The requests an HTTP server is answering, and its closing: stop accepting, close idle keep-alive
 * connections, and let each busy one end after its answer (`Connection: close`), so no request is
 * cut and no client reuses a connection that is about to go away.
 */
export class HttpDrain {
  private readonly active = new Set<ServerResponse>();
  private closing = false;

  constructor(private readonly server: Server) {
    // Before Express sees the request: a request that arrives on a kept-alive connection while closing is its last one.
    server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
      this.active.add(res);
      res.once('close', () => this.active.delete(res));
      if (this.closing) res.setHeader('Connection', 'close');
    });
  }

  /** Requests received and not yet answered (or abandoned by their client). */
  get inFlight(): number {
    return this.active.size;
  }

  /** Resolves when the server holds no connection any more. */
  close(): Promise<void> {
    this.closing = true;
    for (const res of this.active) if (!res.headersSent) res.setHeader('Connection', 'close');
    return new Promise((resolve) => {
      // A connection whose answer was already under way when closing began becomes idle later: sweep again until none is left.
      const sweep = setInterval(() => this.server.closeIdleConnections(), IDLE_SWEEP_MS);
      this.server.close(() => {
        clearInterval(sweep);
        resolve();
      });
      this.server.closeIdleConnections();
    });
  }
}
