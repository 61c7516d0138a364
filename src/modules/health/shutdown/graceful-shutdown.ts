import type { LoggerService } from '@nestjs/common';
import { databaseOutages } from '../../../common/outage-log';
import { HttpDrain } from './http-drain';
import { ShutdownState } from './shutdown-state';

export interface GracefulShutdownOptions {
  state: ShutdownState;
  /** Seconds the instance keeps serving, not ready, before it stops accepting (0 for an instance without traffic). */
  drainSeconds: number;
  /** From the signal on: past this, the process exits 1 naming what still ran. */
  timeoutSeconds: number;
  logger: LoggerService;
  /** The servers answering HTTP (the API, or a worker's probes); read at the signal, so it may grow after start. */
  servers: () => HttpDrain[];
  /** Ends the rest: job workers, webhook deliveries, pools (app.close), then the embedded database. */
  closeApp: () => Promise<void>;
  exit?: (code: number) => void;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * SIGTERM or SIGINT: readiness answers 503 at once; the instance keeps serving for the drain while
 * load balancers take it out; then it stops accepting, finishes the requests in flight, lets jobs
 * and deliveries end (or hands them back to the queue), closes its pools and exits 0. Past the
 * timeout it exits 1; a second signal exits 1 at once.
 */
export function installGracefulShutdown(o: GracefulShutdownOptions): void {
  const exit = o.exit ?? ((code: number) => process.exit(code));
  let phase: 'draining' | 'closing HTTP' | 'closing jobs, webhook deliveries and pools' | null = null;
  const stillRunning = () => {
    const inFlight = o.servers().reduce((n, s) => n + s.inFlight, 0);
    return `${phase}; ${inFlight} HTTP request(s) in flight`;
  };

  const shutdown = async (signal: string) => {
    o.state.begin();
    databaseOutages.shuttingDown();
    phase = 'draining';
    o.logger.log(`${signal}: not ready; serving for ${o.drainSeconds} s more, then closing (at most ${o.timeoutSeconds} s in all)`);
    const deadline = setTimeout(() => {
      o.logger.error(`shutdown did not finish within ${o.timeoutSeconds} s (SHUTDOWN_TIMEOUT_SECONDS): still running: ${stillRunning()}`);
      exit(1);
    }, o.timeoutSeconds * 1000);
    try {
      await sleep(o.drainSeconds * 1000);
      phase = 'closing HTTP';
      await Promise.all(o.servers().map((s) => s.close()));
      phase = 'closing jobs, webhook deliveries and pools';
      await o.closeApp();
      clearTimeout(deadline);
      o.logger.log('shut down');
      exit(0);
    } catch (err) {
      clearTimeout(deadline);
      o.logger.error(`shutdown failed while ${phase}: ${(err as Error).message}`);
      exit(1);
    }
  };

  const onSignal = (signal: NodeJS.Signals) => {
    if (phase === null) return void shutdown(signal);
    o.logger.warn(`${signal} again: exiting at once (still running: ${stillRunning()})`);
    exit(1);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
