import { DatabaseError } from 'pg';
import type { QueryRunner } from 'typeorm';
import { OutageLog } from '../common/outage-log';
import { SafeQueryLogger } from './safe-query-logger';

function pgError(message: string, fields: Partial<DatabaseError>): DatabaseError {
  return Object.assign(new DatabaseError(message, message.length, 'error'), { severity: 'ERROR', ...fields });
}

function capture() {
  const lines: { level: string; text: string }[] = [];
  const at = (level: string) => (m: unknown) => void lines.push({ level, text: String(m) });
  const logger = { error: at('error'), warn: at('warn'), log: at('log'), debug: at('debug') };
  const outages = new OutageLog('database', { logger, probeEveryMs: 60_000 });
  return { lines, logger: new SafeQueryLogger(logger, outages), outages };
}

const PHONE = '+79161234567';
const NAME = 'Анна Петрова';
const EMAIL = 'anna.petrova@example.com';
const LEAD_INSERT = 'INSERT INTO lead (order_id, name, phone) VALUES ($1, $2, $3)';

/** Nothing any line says may contain one of these. */
function expectClean(lines: { text: string }[]): void {
  for (const { text } of lines) for (const secret of [PHONE, NAME, EMAIL, '7916', 'cck_', 'deadbeef']) expect(text).not.toContain(secret);
}

describe('SafeQueryLogger', () => {
  afterEach(() => jest.restoreAllMocks());

  it('logs an unexpected failing statement as one error line of codes and statement kind', () => {
    const { lines, logger } = capture();
    const err = pgError('column "nme" does not exist', { code: '42703', routine: 'errorMissingColumn' });
    logger.logQueryError(err, LEAD_INSERT, [1, NAME, PHONE]);
    expect(lines).toEqual([
      { level: 'error', text: expect.stringMatching(/^query failed: DatabaseError 42703 undefined_column in INSERT INTO lead #[0-9a-f]{8}$/) },
    ]);
  });

  it('leaves handled errors (unique, lock timeout, refused input) to their callers', () => {
    const { lines, logger } = capture();
    logger.logQueryError(
      pgError('duplicate key value violates unique constraint "app_user_email_idx"', {
        code: '23505',
        constraint: 'app_user_email_idx',
        detail: `Key (lower(email))=(${EMAIL}) already exists.`,
      }),
      'INSERT INTO app_user (email, name) VALUES ($1, $2)',
      [EMAIL, NAME],
    );
    logger.logQueryError(
      pgError('duplicate key value violates unique constraint "api_key_name_active_idx"', { code: '23505', detail: 'Key (name)=(crm) already exists.' }),
      'INSERT INTO api_key (name, prefix, key_hash) VALUES ($1, $2, $3)',
      ['crm', 'cck_AbCdEf', 'deadbeef'],
    );
    logger.logQueryError(pgError('canceling statement due to lock timeout', { code: '55P03' }), 'SELECT 1 FROM lead WHERE id = $1 FOR UPDATE', [1]);
    logger.logQueryError(
      pgError(`invalid input syntax for type inet: "fe80::1%${NAME}"`, { code: '22P02', where: "unnamed portal parameter $3 = '...'" }),
      LEAD_INSERT,
      [1, NAME, PHONE],
    );
    expect(lines).toEqual([]);
  });

  it('turns unreachable-database failures into one outage line, however many', () => {
    const { lines, logger, outages } = capture();
    for (let i = 0; i < 30; i++) {
      logger.logQueryError(pgError('terminating connection due to administrator command', { code: '57P01', severity: 'FATAL' }), LEAD_INSERT, [1, NAME, PHONE]);
      logger.logQueryError(new Error('Connection terminated unexpectedly'), LEAD_INSERT, [1, NAME, PHONE]);
    }
    expect(lines).toEqual([{ level: 'warn', text: 'database: database unreachable (57P01 admin_shutdown)' }]);
    outages.close();
  });

  it('probes through the failing query runner so the outage can end', async () => {
    const { lines, logger, outages } = capture();
    const probe = jest.fn().mockResolvedValue([{ '?column?': 1 }]);
    const runner = { connection: { query: probe } } as unknown as QueryRunner;
    jest.useFakeTimers();
    try {
      logger.logQueryError(new Error('Connection terminated unexpectedly'), LEAD_INSERT, [1, NAME, PHONE], runner);
      await jest.advanceTimersByTimeAsync(60_000);
    } finally {
      jest.useRealTimers();
    }
    expect(probe).toHaveBeenCalledWith('SELECT 1');
    expect(outages.isDown('database')).toBe(false);
    expect(lines.map((l) => l.text)).toEqual(['database: database unreachable (connection terminated)', 'database: database reachable again after 60s']);
  });

  it('treats a lost idle connection as an outage only when the server does not answer', async () => {
    const answering = capture();
    const idle = pgError('terminating connection due to administrator command', { code: '57P01', severity: 'FATAL' });
    answering.logger.poolError(idle, () => Promise.resolve());
    answering.logger.poolError(idle, () => Promise.resolve());
    await new Promise((r) => setImmediate(r));
    expect(answering.lines.every((l) => l.level === 'debug')).toBe(true);

    const down = capture();
    down.logger.poolError(idle, () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432')));
    await new Promise((r) => setImmediate(r));
    expect(down.lines).toEqual([{ level: 'warn', text: 'database: database unreachable (ECONNREFUSED)' }]);
    down.outages.close();
  });

  it('never logs statements, and scrubs warnings and slow-query lines', () => {
    const { lines, logger } = capture();
    logger.logQuery();
    logger.logQuerySlow(1500, `SELECT * FROM lead WHERE phone = '${PHONE}'`);
    logger.log('warn', `Postgres pool raised an error. Key (email)=(${EMAIL})`);
    logger.log('info', `NOTICE: "${NAME}"`);
    expect(lines.map((l) => l.level)).toEqual(['warn', 'warn', 'debug']);
    expect(lines[0].text).toMatch(/^slow query \(1500 ms\): SELECT FROM lead #/);
    expectClean(lines);
  });
});
