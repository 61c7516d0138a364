import { findPage, type PagePlaceholders } from './page';

/** Records the statements it is given and answers rows for the list and a count for the count. */
function fakeDb(rows: unknown[], n: number | string) {
  const calls: { sql: string; params?: unknown[] }[] = [];
  return {
    calls,
    query: (sql: string, params?: unknown[]) => {
      calls.push({ sql, params });
      return Promise.resolve(sql.includes('count(') ? [{ n }] : rows);
    },
  };
}

describe('findPage over SQL', () => {
  it('counts with the filter parameters, then lists with OFFSET and LIMIT after them', async () => {
    const db = fakeDb([{ id: 5 }, { id: 6 }], 12);
    const page = await findPage(
      {
        db,
        select: 'SELECT id FROM t WHERE a = $1 AND b = $2 ORDER BY id',
        count: 'SELECT count(*)::int AS n FROM t WHERE a = $1 AND b = $2',
        params: ['x', 3],
      },
      4,
      2,
    );
    expect(page).toEqual({ list: [{ id: 5 }, { id: 6 }], next: 6, total: 12 });
    expect(db.calls).toEqual([
      { sql: 'SELECT count(*)::int AS n FROM t WHERE a = $1 AND b = $2', params: ['x', 3] },
      { sql: 'SELECT id FROM t WHERE a = $1 AND b = $2 ORDER BY id OFFSET $3 LIMIT $4', params: ['x', 3, 4, 2] },
    ]);
  });

  it('lets the list statement place the offset and limit itself', async () => {
    const db = fakeDb([{ id: 9 }], 3);
    const page = await findPage(
      {
        db,
        count: 'SELECT count(*)::int AS n FROM t WHERE k = $1',
        select: (at: PagePlaceholders) => `SELECT * FROM (SELECT id FROM t WHERE k = $1 ORDER BY id LIMIT ${at.limit} OFFSET ${at.offset}) p JOIN t USING (id)`,
        params: ['v'],
      },
      2,
      10,
    );
    expect(page).toEqual({ list: [{ id: 9 }], next: 3, total: 3 });
    expect(db.calls[1]).toEqual({
      sql: 'SELECT * FROM (SELECT id FROM t WHERE k = $1 ORDER BY id LIMIT $3 OFFSET $2) p JOIN t USING (id)',
      params: ['v', 2, 10],
    });
  });

  it('sends no list statement for a page past the end, and reads a bigint count sent as text', async () => {
    const empty = fakeDb([], '0');
    expect(await findPage({ db: empty, select: 'SELECT id FROM t ORDER BY id', count: 'SELECT count(*) AS n FROM t' }, 0, 50)).toEqual({
      list: [],
      next: 0,
      total: 0,
    });
    const past = fakeDb([{ id: 1 }], '7');
    expect(await findPage({ db: past, select: 'SELECT id FROM t ORDER BY id', count: 'SELECT count(*) AS n FROM t' }, 7, 50)).toEqual({
      list: [],
      next: 7,
      total: 7,
    });
    expect([empty.calls.length, past.calls.length]).toEqual([1, 1]);
  });
});
