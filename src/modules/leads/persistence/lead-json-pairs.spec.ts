import { LEAD_SELECT, leadJsonPairs } from './leads.repository';

describe('leadJsonPairs', () => {
  it('keys each column as LEAD_SELECT names it (its alias, else its column)', () => {
    expect(leadJsonPairs(`l.id, l.order_id AS "orderId", l.social_a_id::text AS "socialAId",\n  l.city`)).toBe(
      `'id', l.id, 'orderId', l.order_id, 'socialAId', l.social_a_id::text, 'city', l.city`,
    );
    const pairs = leadJsonPairs(LEAD_SELECT);
    const columns = LEAD_SELECT.split(',').length;
    expect(pairs.split(', ').length).toBe(2 * columns);
    for (const key of ['id', 'orderCode', 'planningCallAt', 'customValues', 'additionalParams', 'createdAt', 'updatedAt'])
      expect(pairs).toContain(`'${key}', `);
  });

  it('refuses an item with a comma of its own rather than splitting it', () => {
    expect(() => leadJsonPairs(`l.id, coalesce(l.name, '') AS name`)).toThrow(/comma inside/);
  });
});
