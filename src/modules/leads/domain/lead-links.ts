/**
 * Secondary leads: a new lead whose normalised phone matches a lead of the same order created within the duplicate window gets
 * `previousLeadId` = the most recent such lead, whose `nextLeadId` becomes the new lead. Links record arrival: phone edits do not re-link.
 */

const MS_PER_DAY = 86_400_000;

/** Earliest creation time a previous lead may have; null when linking is switched off (0 days). */
export function duplicateWindowStart(now: Date, windowDays: number): Date | null {
  if (!(windowDays > 0)) return null;
  return new Date(now.getTime() - windowDays * MS_PER_DAY);
}

export interface LinkCandidate {
  id: number;
  createdAt: Date;
}

/**
 * The most recent candidate inside the window, by id, not `createdAt`: ids follow the order in which creates of one phone take
 * their lock, while `createdAt` is each transaction's start, so a create that waited can carry an earlier one than its predecessor.
 */
export function pickPreviousLead(candidates: readonly LinkCandidate[], now: Date, windowDays: number): LinkCandidate | null {
  const start = duplicateWindowStart(now, windowDays);
  if (!start) return null;
  let best: LinkCandidate | null = null;
  for (const c of candidates) {
    if (c.createdAt < start) continue;
    if (!best || c.id > best.id) best = c;
  }
  return best;
}

export interface LinkedLead {
  id: number;
  previousLeadId: number | null;
  nextLeadId: number | null;
}

/**
 * Problems in a set of linked leads: links must agree both ways and never cycle. Empty when
 * the links form simple chains. Used by tests and as a consistency check.
 */
export function linkProblems(leads: readonly LinkedLead[]): string[] {
  const byId = new Map(leads.map((l) => [l.id, l]));
  const problems: string[] = [];
  for (const l of leads) {
    if (l.nextLeadId !== null) {
      const next = byId.get(l.nextLeadId);
      if (next && next.previousLeadId !== l.id) problems.push(`${l.id}.next = ${l.nextLeadId} but ${l.nextLeadId}.previous = ${next.previousLeadId}`);
    }
    if (l.previousLeadId !== null) {
      const prev = byId.get(l.previousLeadId);
      if (prev && prev.nextLeadId !== l.id) problems.push(`${l.id}.previous = ${l.previousLeadId} but ${l.previousLeadId}.next = ${prev.nextLeadId}`);
    }
  }
  for (const start of leads) {
    const seen = new Set<number>();
    let cur: LinkedLead | undefined = start;
    while (cur && cur.nextLeadId !== null) {
      if (seen.has(cur.id)) {
        problems.push(`cycle through ${cur.id}`);
        break;
      }
      seen.add(cur.id);
      cur = byId.get(cur.nextLeadId);
    }
  }
  return problems;
}
