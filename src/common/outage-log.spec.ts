import { Logger } from '@nestjs/common';
import { DatabaseError } from 'pg';
import { OutageLog, reportDatabaseError } from './outage-log';

function sink() {
  const lines: string[] = [];
  const push = (m: unknown) => void lines.push(String(m));
  return { lines, logger: { warn: push, log: push, error: push } };
}

const adminShutdown = () =>
  Object.assign(new DatabaseError('terminating connection due to administrator command', 0, 'error'), { code: '57P01', severity: 'FATAL' });

describe('OutageLog', () => {
  afterEach(() => jest.useRealTimers());

  it('logs one line when a source goes down and one when it recovers, with the duration', () => {
    let now = 1_000;
    const { lines, logger } = sink();
    const outages = new OutageLog('database', { logger, now: () => now });
    expect(outages.failed('pg-boss', 'ECONNREFUSED')).toBe(true);
    for (let i = 0; i < 50; i++) expect(outages.failed('pg-boss', 'ECONNREFUSED')).toBe(false);
    now += 12_400;
    expect(outages.recovered('pg-boss')).toBe(true);
    expect(outages.recovered('pg-boss')).toBe(false);
    expect(lines).toEqual(['pg-boss: database unreachable (ECONNREFUSED)', 'pg-boss: database reachable again after 12s']);
  });

  it('keeps sources apart', () => {
    const { lines, logger } = sink();
    const outages = new OutageLog('database', { logger });
    outages.failed('database', '57P01 admin_shutdown');
    outages.failed('pg-boss', 'connection terminated');
    outages.failed('database', 'connection terminated');
    outages.recovered('database');
    expect(outages.isDown('pg-boss')).toBe(true);
    expect(lines).toHaveLength(3);
  });

  it('logs nothing once the process shuts down: pools ending and a stopping server are the shutdown, not an outage', () => {
    const { lines, logger } = sink();
    const outages = new OutageLog('database', { logger });
    outages.shuttingDown();
    expect(outages.failed('database', 'pool ended')).toBe(false);
    expect(outages.failed('pg-boss', '57P01 admin_shutdown', () => Promise.resolve())).toBe(false);
    expect(outages.isShuttingDown).toBe(true);
    expect(lines).toEqual([]);
  });

  it('holds a server stop for the grace: dropped when the process shuts down meanwhile, logged with its start time otherwise', async () => {
    jest.useFakeTimers();
    try {
      const { lines, logger } = sink();
      let now = 1_000_000;
      const outages = new OutageLog('database', { logger, now: () => now });
      outages.holdServerStops(1000);
      expect(outages.failed('database', 'ECONNREFUSED')).toBe(true);
      expect(lines).toEqual(['database: database unreachable (ECONNREFUSED)']);
      expect(outages.failed('pg-boss', '57P01 admin_shutdown')).toBe(false);
      // A reconnect refused by the stopping server is part of the same held stop.
      expect(outages.failed('pg-boss', 'ECONNREFUSED')).toBe(false);
      expect(outages.isDown('pg-boss')).toBe(false);
      now += 1000;
      await jest.advanceTimersByTimeAsync(1000);
      expect(outages.isDown('pg-boss')).toBe(true);
      now += 4000;
      outages.recovered('pg-boss');
      expect(lines.slice(1)).toEqual(['pg-boss: database unreachable (57P01 admin_shutdown)', 'pg-boss: database reachable again after 5s']);

      const stopping = sink();
      const withCtrlC = new OutageLog('database', { logger: stopping.logger });
      withCtrlC.holdServerStops(1000);
      withCtrlC.failed('database', '57P01 admin_shutdown');
      await jest.advanceTimersByTimeAsync(300);
      withCtrlC.failed('database', 'ECONNREFUSED');
      withCtrlC.shuttingDown();
      await jest.advanceTimersByTimeAsync(2000);
      expect(withCtrlC.isDown('database')).toBe(false);
      expect(stopping.lines).toEqual([]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('probes a source that sees only failures until the dependency answers', async () => {
    jest.useFakeTimers();
    const { lines, logger } = sink();
    const outages = new OutageLog('database', { logger, probeEveryMs: 1000 });
    let answers = false;
    const probe = jest.fn(() => (answers ? Promise.resolve() : Promise.reject(new Error('Connection terminated unexpectedly'))));
    outages.failed('pg-boss', 'connection terminated', probe);
    await jest.advanceTimersByTimeAsync(3000);
    expect(probe).toHaveBeenCalledTimes(3);
    expect(outages.isDown('pg-boss')).toBe(true);
    answers = true;
    await jest.advanceTimersByTimeAsync(1000);
    expect(outages.isDown('pg-boss')).toBe(false);
    await jest.advanceTimersByTimeAsync(5000);
    expect(probe).toHaveBeenCalledTimes(4);
    expect(lines).toEqual(['pg-boss: database unreachable (connection terminated)', 'pg-boss: database reachable again after 4s']);
  });

  it('uses the default probe of a source when a failure comes without one', async () => {
    jest.useFakeTimers();
    const { lines, logger } = sink();
    const outages = new OutageLog('database', { logger, probeEveryMs: 1000 });
    let answers = false;
    outages.useDefaultProbe('database', () => (answers ? Promise.resolve() : Promise.reject(new Error('Connection terminated unexpectedly'))));
    for (let i = 0; i < 5; i++) outages.failed('database', 'ECONNREFUSED');
    await jest.advanceTimersByTimeAsync(2000);
    answers = true;
    await jest.advanceTimersByTimeAsync(1000);
    expect(outages.isDown('database')).toBe(false);
    expect(lines).toEqual(['database: database unreachable (ECONNREFUSED)', 'database: database reachable again after 3s']);
  });

  it('stops probing when the probe fails for another reason (the app shut down)', async () => {
    jest.useFakeTimers();
    const outages = new OutageLog('database', { logger: sink().logger, probeEveryMs: 1000 });
    const probe = jest.fn(() => Promise.reject(new Error('DataSource is not initialized')));
    outages.failed('database', 'ECONNREFUSED', probe);
    await jest.advanceTimersByTimeAsync(5000);
    expect(probe).toHaveBeenCalledTimes(1);
    expect(outages.isDown('database')).toBe(true);
  });
});

describe('reportDatabaseError', () => {
  it('folds unavailability into the outage and logs anything else as names and codes', () => {
    const { lines, logger } = sink();
    const outageLines: unknown[] = [];
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation((m: unknown) => void outageLines.push(m));
    try {
      for (let i = 0; i < 20; i++) reportDatabaseError('unit-test-source', adminShutdown(), logger);
    } finally {
      warn.mockRestore();
    }
    expect(outageLines).toEqual(['unit-test-source: database unreachable (57P01 admin_shutdown)']);
    const unique = Object.assign(new DatabaseError('duplicate key value violates unique constraint "job_pkey"', 0, 'error'), {
      code: '23505',
      constraint: 'job_pkey',
      detail: 'Key (id)=(secret) already exists.',
    });
    reportDatabaseError('unit-test-source', unique, logger);
    expect(lines).toEqual(['unit-test-source: DatabaseError 23505 unique_violation constraint=job_pkey']);
  });
});
