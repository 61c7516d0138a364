import type { QueryRunner } from 'typeorm';
import { Leads1763790000000 } from '../../../migrations/1763790000000-leads';
import { CounterSet } from './counter-set';

const norm = (sql: string) => sql.replace(/\s+/g, ' ').trim();

/** The SQL a migration's `up` runs, captured without a database. */
async function migrationSql(up: (q: QueryRunner) => Promise<void>): Promise<string[]> {
  const sql: string[] = [];
  await up({ query: (s: string) => Promise.resolve(void sql.push(s)) } as unknown as QueryRunner);
  return sql.map(norm);
}

const leads = new CounterSet({ name: 'lead_count', table: 'lead', dimensions: ['order_id', 'status_id'], timeColumn: 'created_at', idColumn: 'id' });

describe('CounterSet', () => {
  it('generates exactly the lead counters the leads migration creates', async () => {
    const migration = new Leads1763790000000();
    const counterDdl = (await migrationSql((q) => migration.up(q))).filter((s) => s.includes('lead_count'));
    // The update function as that migration wrote it; CounterUpdateTriggersNoNestedLoop replaced it since.
    expect(leads.schema('any').map(norm)).toEqual(counterDdl);
    expect(leads.updateTriggerFunctions('no-nested-loop').map(norm)[0]).toMatch(
      /^CREATE OR REPLACE FUNCTION lead_count_on_update\(\) .* SET enable_nestloop = off AS/,
    );
  });

  it('skips NULLs of nullable dimensions in every trigger and counts them out of the boundary hours', () => {
    const set = new CounterSet({ name: 'x_count', table: 'x', dimensions: ['a', 'b'], nullable: ['b'], timeColumn: 'at', idColumn: 'id' });
    const ddl = set.schema().map(norm).join('\n');
    expect(ddl).toContain('FROM new_rows WHERE b IS NOT NULL GROUP BY 1, 2, 3');
    expect(ddl).toContain('FROM old_rows WHERE b IS NOT NULL GROUP BY 1, 2, 3');
    expect(ddl).toContain('AND o.b IS NOT NULL');
    expect(ddl).toContain('AND w.b IS NOT NULL');
    const from = new Date('2026-11-22T10:30:00Z');
    expect(set.statsQuery({ keys: { a: [1] }, from }).sql).toContain('b IS NOT NULL');
    expect(set.statsQuery({ keys: { a: [1], b: [2] }, from }).sql).not.toContain('IS NOT NULL');
    expect(norm(set.backfill())).toContain('FROM x WHERE b IS NOT NULL GROUP BY 1, 2, 3');
  });

  it('refuses unknown dimensions and identifiers that are not plain names', () => {
    expect(() => new CounterSet({ name: 'x; drop', table: 'x', dimensions: ['a'], timeColumn: 't', idColumn: 'id' })).toThrow();
    expect(() => new CounterSet({ name: 'x', table: 'x', dimensions: ['a'], nullable: ['b'], timeColumn: 't', idColumn: 'id' })).toThrow();
    expect(() => leads.statsQuery({ keys: { user_id: [1] } })).toThrow();
  });

  it('reads the rollup over a dimension when the filter leaves it open, the counters per key otherwise, and deltas always', () => {
    const set = new CounterSet({ name: 'x_count', table: 'x', dimensions: ['a', 'b'], rollup: 'a', timeColumn: 'at', idColumn: 'id' });
    const from = new Date('2026-11-20T10:30:00Z');
    const to = new Date('2026-11-22T10:30:00Z');
    for (const range of [{}, { from, to }]) {
      const open = norm(set.statsQuery({ keys: { b: [1] }, ...range }).sql);
      expect(open).toMatch(/FROM x_count_rollup_(total|hour)/);
      expect(open).not.toMatch(/FROM x_count_(total|hour|day) /);
      expect(open).toContain('FROM x_count_delta');
      const keyed = norm(set.statsQuery({ keys: { a: [5], b: [1] }, ...range }).sql);
      expect(keyed).not.toContain('rollup');
    }
    const ddl = set.rollupSchema().map(norm);
    expect(ddl.filter((s) => s.startsWith('CREATE TRIGGER'))).toHaveLength(9);
    expect(ddl).toContain(
      'INSERT INTO x_count_rollup_day (b, day, n, min_id, max_id) SELECT b, day, sum(n), min(min_id), max(max_id) FROM x_count_day GROUP BY b, day',
    );
    expect(set.dropRollupSchema()).toHaveLength(21);
    expect(() => new CounterSet({ name: 'y', table: 'y', dimensions: ['a'], rollup: 'a', timeColumn: 't', idColumn: 'id' })).toThrow();
  });

  it('drops what it creates, triggers first', () => {
    const drops = leads.dropSchema();
    expect(drops[0]).toBe('DROP TRIGGER lead_count_ins ON lead');
    expect(drops.filter((s) => s.startsWith('DROP TABLE'))).toEqual(['total', 'day', 'hour', 'delta'].map((t) => `DROP TABLE lead_count_${t}`));
  });
});
