import { Logger } from '@nestjs/common';
import { databaseUnavailableReason, describeDatabaseError } from './pg-errors';

export type LogSink = Pick<Logger, 'warn' | 'log' | 'error'>;
/** A cheap round trip to the dependency (`SELECT 1`); resolves once it answers again. */
export type Probe = () => Promise<unknown>;

/** The reason's prefix when the server ends connections on a shutdown request (`57P01 admin_shutdown`). */
const SERVER_STOPPED = '57P01';

interface Outage {
  since: number;
  reason: string;
  probe?: Probe;
  timer?: NodeJS.Timeout;
}

export interface OutageLogOptions {
  logger?: LogSink;
  /** How often a source that reported an outage is probed for recovery. */
  probeEveryMs?: number;
  now?: () => number;
}

/**
 * Logs an outage as two lines per source (pool `database` or `pg-boss`): `unreachable (<reason>)` on the first failure and
 * `reachable again after <N>s` on recovery, however many failures come between. A source that sees its successes calls
 * `recovered`; one that sees only failures passes a probe, run every `probeEveryMs` until it answers (or fails otherwise).
 */
export class OutageLog {
  private readonly outages = new Map<string, Outage>();
  /** Probes used when a failure is reported without one (background tasks that only see their own failures). */
  private readonly defaultProbes = new Map<string, Probe>();
  private readonly logger: LogSink;
  private readonly probeEveryMs: number;
  private readonly now: () => number;
  private closing = false;
  /** See `holdServerStops`: 0 logs a server's stop at once. */
  private stopGraceMs = 0;
  private readonly heldStops = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly what = 'database',
    options: OutageLogOptions = {},
  ) {
    this.logger = options.logger ?? new Logger('Outage');
    this.probeEveryMs = options.probeEveryMs ?? 2_000;
    this.now = options.now ?? (() => Date.now());
  }

  /** Reports that `source` could not reach the dependency. True when this call started the outage (and logged it). */
  failed(source: string, reason: string, givenProbe?: Probe): boolean {
    if (this.closing) return false;
    const probe = givenProbe ?? this.defaultProbes.get(source);
    const known = this.outages.get(source);
    if (known) {
      if (probe && !known.probe) this.startProbing(source, known, probe);
      return false;
    }
    // Any failure while a stop is held is that stop's (a reconnect to the stopping server is refused).
    if (this.heldStops.has(source)) return false;
    if (this.stopGraceMs > 0 && reason.startsWith(SERVER_STOPPED)) {
      const since = this.now();
      const timer = setTimeout(() => {
        this.heldStops.delete(source);
        if (!this.closing && !this.outages.has(source)) this.open(source, reason, probe ?? this.defaultProbes.get(source), since);
      }, this.stopGraceMs);
      timer.unref();
      this.heldStops.set(source, timer);
      return false;
    }
    this.open(source, reason, probe, this.now());
    return true;
  }

  /**
   * The server shares this process's fate (an embedded server in the same process group): a terminal's Ctrl-C reaches it
   * too, and it may end the pool's connections before this process runs its own handler. A stop reported by the server
   * (57P01) then opens an outage only if this process is not shutting down `graceMs` later.
   */
  holdServerStops(graceMs: number): void {
    this.stopGraceMs = graceMs;
  }

  private open(source: string, reason: string, probe: Probe | undefined, since: number): void {
    const outage: Outage = { since, reason };
    this.outages.set(source, outage);
    this.logger.warn(`${source}: ${this.what} unreachable (${reason})`);
    if (probe) this.startProbing(source, outage, probe);
  }

  /** Reports that `source` reached the dependency. True when this call ended an outage (and logged it). */
  recovered(source: string): boolean {
    const outage = this.outages.get(source);
    if (!outage) return false;
    clearTimeout(outage.timer);
    this.outages.delete(source);
    const seconds = Math.round((this.now() - outage.since) / 1000);
    this.logger.log(`${source}: ${this.what} reachable again after ${seconds}s`);
    return true;
  }

  /**
   * The probe for `source` when a failure comes without one, so an outage seen only by
   * background tasks (compaction, sweeps, heartbeats) is still logged as over when it is.
   */
  useDefaultProbe(source: string, probe: Probe): void {
    this.defaultProbes.set(source, probe);
  }

  isDown(source: string): boolean {
    return this.outages.has(source);
  }

  /**
   * The process is shutting down: the dependency going away from now on is the shutdown itself (pools ended under a
   * background task, or an embedded server stopped by the same Ctrl-C), not an outage. Nothing more is logged; probes stop.
   */
  shuttingDown(): void {
    this.closing = true;
    this.close();
  }

  get isShuttingDown(): boolean {
    return this.closing;
  }

  /** Stops every probe (the states stay). */
  close(): void {
    for (const timer of this.heldStops.values()) clearTimeout(timer);
    this.heldStops.clear();
    for (const outage of this.outages.values()) {
      clearTimeout(outage.timer);
      outage.probe = undefined;
    }
  }

  private startProbing(source: string, outage: Outage, probe: Probe): void {
    outage.probe = probe;
    const tick = () => {
      outage.timer = undefined;
      probe().then(
        () => {
          if (this.outages.get(source) === outage) this.recovered(source);
        },
        (err: unknown) => {
          if (this.outages.get(source) !== outage) return;
          if (databaseUnavailableReason(err) === null) {
            outage.probe = undefined;
            return;
          }
          schedule();
        },
      );
    };
    const schedule = () => {
      if (outage.probe !== probe) return;
      outage.timer = setTimeout(tick, this.probeEveryMs);
      outage.timer.unref();
    };
    schedule();
  }
}

/** The source name of the app's TypeORM pool in outage lines (the query logger and the exception filter). */
export const DATABASE_SOURCE = 'database';

/** The process's view of its PostgreSQL server, one state per source (connection pool). */
export const databaseOutages = new OutageLog('database');

/**
 * For an error handler that sees only failures (pg-boss's `error` event): an unreachable
 * database opens the source's outage (logged once, then probed until it answers); any other
 * error is logged as one line of names and codes, never its message's values.
 */
export function reportDatabaseError(source: string, err: unknown, logger: LogSink, probe?: Probe): void {
  const reason = databaseUnavailableReason(err);
  if (reason) databaseOutages.failed(source, reason, probe);
  else logger.error(`${source}: ${describeDatabaseError(err)}`);
}
