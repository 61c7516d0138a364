import { DemoSeeder } from '../../src/database/seed/demo-seeder';
import type { TestApp } from './test-app';

/**
 * The demo seed steps not yet applied to `t`'s database, in the order the seeder runs them,
 * without running any: a trigger records each step's claim in demo_seed_step and drops it, which
 * the seeder takes as another instance having claimed that step.
 */
export async function pendingDemoSteps(t: TestApp): Promise<string[]> {
  await t.ds.query(`CREATE TABLE test_demo_claim (position serial PRIMARY KEY, name text NOT NULL)`);
  await t.ds.query(`CREATE FUNCTION test_demo_claim() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN INSERT INTO test_demo_claim (name) VALUES (NEW.name); RETURN NULL; END $$`);
  await t.ds.query(`CREATE TRIGGER test_demo_claim BEFORE INSERT ON demo_seed_step FOR EACH ROW EXECUTE FUNCTION test_demo_claim()`);
  try {
    expect(await t.app.get(DemoSeeder).run()).toEqual([]);
    const claims = await t.ds.query<{ name: string }[]>(`SELECT name FROM test_demo_claim ORDER BY position`);
    return claims.map((r) => r.name);
  } finally {
    await t.ds.query(`DROP TRIGGER test_demo_claim ON demo_seed_step`);
    await t.ds.query(`DROP FUNCTION test_demo_claim()`);
    await t.ds.query(`DROP TABLE test_demo_claim`);
  }
}
