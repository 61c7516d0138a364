import fc from 'fast-check';
import { duplicateWindowStart, LinkedLead, linkProblems, pickPreviousLead } from './lead-links';

const DAY = 86_400_000;

describe('secondary lead linking', () => {
  const now = new Date('2026-11-22T12:00:00Z');

  it('picks the most recent lead inside the window', () => {
    const c = [
      { id: 1, createdAt: new Date(now.getTime() - 40 * DAY) },
      { id: 2, createdAt: new Date(now.getTime() - 10 * DAY) },
      { id: 3, createdAt: new Date(now.getTime() - 2 * DAY) },
    ];
    expect(pickPreviousLead(c, now, 30)?.id).toBe(3);
    expect(pickPreviousLead(c.slice(0, 1), now, 30)).toBeNull();
    expect(pickPreviousLead(c, now, 0)).toBeNull();
    expect(duplicateWindowStart(now, 30)).toEqual(new Date(now.getTime() - 30 * DAY));
    expect(duplicateWindowStart(now, 0)).toBeNull();
  });

  it('linking leads one at a time yields consistent chains without cycles', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 60 })), { maxLength: 60 }), (arrivals) => {
        // arrivals: (phone, day) in arrival order; time moves forward
        const leads: (LinkedLead & { phone: number; createdAt: Date })[] = [];
        let t = 0;
        for (const [phone, gap] of arrivals) {
          t += (gap * DAY) / 10;
          const at = new Date(now.getTime() + t);
          const prev = pickPreviousLead(
            leads.filter((l) => l.phone === phone),
            at,
            30,
          );
          const lead = { id: leads.length + 1, phone, createdAt: at, previousLeadId: prev?.id ?? null, nextLeadId: null };
          if (prev) leads.find((l) => l.id === prev.id)!.nextLeadId = lead.id;
          leads.push(lead);
        }
        expect(linkProblems(leads)).toEqual([]);
      }),
    );
  });

  it('reports disagreeing links and cycles', () => {
    expect(
      linkProblems([
        { id: 1, previousLeadId: null, nextLeadId: 2 },
        { id: 2, previousLeadId: null, nextLeadId: null },
      ]),
    ).toHaveLength(1);
    expect(
      linkProblems([
        { id: 1, previousLeadId: 2, nextLeadId: 2 },
        { id: 2, previousLeadId: 1, nextLeadId: 1 },
      ]).some((p) => p.startsWith('cycle')),
    ).toBe(true);
  });
});

describe('recency under concurrent creates', () => {
  it('follows ids, not creation times: a create that waited for the lock carries an earlier createdAt', () => {
    const now = new Date('2026-11-22T12:00:00Z');
    const waited = { id: 9, createdAt: new Date(now.getTime() - 50) };
    const first = { id: 8, createdAt: new Date(now.getTime() - 10) };
    expect(pickPreviousLead([first, waited], now, 30)?.id).toBe(9);
  });
});
