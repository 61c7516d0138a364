import { Logger as NestLogger } from '@nestjs/common';
import type { Logger as TypeOrmLogger, QueryRunner } from 'typeorm';
import { DATABASE_SOURCE, OutageLog, Probe, databaseOutages } from '../common/outage-log';
import {
  databaseBusyReason,
  databaseUnavailableReason,
  describeDatabaseError,
  inputRefusedByDatabase,
  isUniqueViolation,
  scrubText,
  statementKind,
} from '../common/pg-errors';

type Sink = Pick<NestLogger, 'error' | 'warn' | 'log' | 'debug'>;

/**
 * TypeORM's logger for this service: never parameters, SQL text or PostgreSQL's message and detail, which can hold personal data.
 * A failing statement logs one line of names and codes, nothing when its caller reports it (unique, timeout, refused input);
 * the database unreachable logs the outage's two lines (OutageLog); slow queries, warnings, notices their kind or scrubbed text.
 */
export class SafeQueryLogger implements TypeOrmLogger {
  private checkingPool = false;

  constructor(
    private readonly logger: Sink = new NestLogger('Database'),
    private readonly outages: OutageLog = databaseOutages,
  ) {}

  logQuery(): void {
    // Statements are never logged (their text and parameters are the data).
  }

  logQueryError(error: string | Error, query: string, _parameters?: unknown, queryRunner?: QueryRunner): void {
    if (typeof error === 'string') {
      this.logger.error(`query failed: ${scrubText(error)} in ${statementKind(query)}`);
      return;
    }
    const reason = databaseUnavailableReason(error);
    if (reason) {
      const ds = queryRunner?.connection;
      this.outages.failed(DATABASE_SOURCE, reason, ds ? () => ds.query('SELECT 1') : undefined);
      return;
    }
    // Errors a caller turns into an answer (409, 503, 400) are reported there, with the request id.
    if (isUniqueViolation(error) || databaseBusyReason(error) || inputRefusedByDatabase(error)) return;
    this.logger.error(`query failed: ${describeDatabaseError(error)} in ${statementKind(query)}`);
  }

  logQuerySlow(time: number, query: string): void {
    this.logger.warn(`slow query (${time} ms): ${statementKind(query)}`);
  }

  logSchemaBuild(): void {
    // synchronize is never on.
  }

  logMigration(): void {
    // runMigrations' caller logs the names of the migrations applied.
  }

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    const line = scrubText(typeof message === 'string' ? message : String(message));
    if (level === 'warn') this.logger.warn(line);
    else this.logger.debug(line);
  }

  /**
   * pg-pool's `error` event: an idle client lost its connection, which the pool replaces on the next checkout. So it is an outage
   * only if the server does not answer: `probe` (a query on that pool) decides, once per burst, and probes a found outage until it ends.
   */
  poolError(err: unknown, probe?: Probe): void {
    const reason = databaseUnavailableReason(err);
    if (!reason) {
      this.logger.warn(`pool error: ${describeDatabaseError(err)}`);
      return;
    }
    if (this.outages.isDown(DATABASE_SOURCE) || this.checkingPool) return;
    if (!probe) {
      this.logger.debug(`idle connection lost (${reason})`);
      return;
    }
    this.checkingPool = true;
    probe()
      .then(
        () => this.logger.debug(`idle connection lost (${reason}); the database answers`),
        (probeErr: unknown) => {
          const down = databaseUnavailableReason(probeErr);
          if (down) this.outages.failed(DATABASE_SOURCE, down, probe);
        },
      )
      .finally(() => (this.checkingPool = false));
  }
}
