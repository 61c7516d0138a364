import { createServer } from 'node:net';

/**
 * Ports below Linux's ephemeral range (32768-60999): the OS never hands these out for port 0, so
 * the other test runs and benches on this machine (which ask for port 0) cannot take the port
 * between this check and the bind of the server it is meant for.
 */
const FIRST = 20_000;
const LAST = 32_000;

function bindable(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, host, () => srv.close(() => resolve(true)));
  });
}

export async function freeLoopbackPort(): Promise<number> {
  for (let i = 0; i < 200; i++) {
    const port = FIRST + Math.floor(Math.random() * (LAST - FIRST));
    // The service listens on 0.0.0.0, PostgreSQL on 127.0.0.1: both must be free.
    if ((await bindable(port, '0.0.0.0')) && (await bindable(port, '127.0.0.1'))) return port;
  }
  throw new Error(`no free port in ${FIRST}-${LAST}`);
}
