import { EntityManager } from 'typeorm';
import { DemoSeedStep } from '../../../database/seed/demo-seeder';

/** Ids 1 (the default) and 2 on a fresh database. */
export const callAttemptGroupsDemoSeed: DemoSeedStep = {
  name: 'reference-data:call-attempt-groups',
  order: 10,
  async run(m: EntityManager) {
    const [{ n }]: { n: number }[] = await m.query(`SELECT count(*)::int AS n FROM call_attempt_group WHERE is_default`);
    await m.query(
      `INSERT INTO call_attempt_group (title, intervals, is_default, reset_attempts_enabled, repeat_last_interval) VALUES ($1, $2::int[], $3, false, false)`,
      ['Стандартный дозвон', [5, 30, 120, 1440], n === 0],
    );
    await m.query(
      `INSERT INTO call_attempt_group (title, intervals, is_default, reset_attempts_enabled, repeat_last_interval) VALUES ($1, $2::int[], false, true, true)`,
      ['Настойчивый дозвон', [15, 60]],
    );
  },
};
