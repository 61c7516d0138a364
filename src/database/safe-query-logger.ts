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
 * TypeORM's logger for this service. TypeORM's own loggers print a failing statement with its
 * parameters (a lead's phone and name, an API key's hash, a user's e-mail); this one never
 * prints parameters, the SQL text or PostgreSQL's message and detail (both can quote values):
 *
 * - a failing statement: one error line of SQLSTATE, constraint, table, column and statement
 *   kind (`INSERT INTO lead #1a2b3c4d`); nothing for the errors a caller handles and reports
 *   itself (unique violations, lock and statement timeouts, input the database refused: services
 *   and the exception filter turn those into 409/503/400, the filter logging them with the request id);
 * - the database unreachable (a failing statement or a pool error): the outage's two lines
 *   (see OutageLog), not one line per failure;
 * - slow statements (with `maxQueryExecutionTime`), warnings and notices: kind or scrubbed text.
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
   * pg-pool's `error` event: an idle client lost its connection (the server restarted, or an
   * admin or a proxy closed idle sessions). The pool replaces it on the next checkout, so this is
   * an outage only if the server does not answer: `probe` (a query on that pool) decides, once
   * for a burst of such errors, and an outage it finds is then probed until it ends.
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
