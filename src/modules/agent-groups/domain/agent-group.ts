/** An agent group: a named set of users (agents) that orders can admit as a whole. */
export interface AgentGroupNames {
  ru: string;
  gb: string;
}

export interface AgentGroup {
  id: number;
  names: Partial<AgentGroupNames>;
  /** Member user ids, ascending. */
  agentIds: number[];
  /** 0 = the system (changes made through API keys are the system's). */
  createdBy: number;
  updatedBy: number;
  createdAt: Date;
  updatedAt: Date;
}

/** Who changes groups through the API: API keys are not users, so the system (API.md: 0 means the system). */
export const SYSTEM_ACTOR = 0;

export const MAX_AGENTS_PER_GROUP = 1000;
export const MAX_NAME_LENGTH = 255;

/** Membership is a set: duplicates collapse, order is ascending. */
export function normaliseAgentIds(ids: number[]): number[] {
  return [...new Set(ids)].sort((a, b) => a - b);
}

/** Requested ids that do not exist, ascending; empty when all exist. */
export function missingIds(requested: number[], existing: number[]): number[] {
  const found = new Set(existing);
  return normaliseAgentIds(requested.filter((id) => !found.has(id)));
}

/** Both names as strings ('' for a language never named). */
export function completeNames(names: Partial<AgentGroupNames> | null | undefined): AgentGroupNames {
  return { ru: names?.ru ?? '', gb: names?.gb ?? '' };
}

/** Update semantics of names: the languages sent replace theirs, the others stay. */
export function mergeNames(current: Partial<AgentGroupNames>, patch: Partial<AgentGroupNames>): AgentGroupNames {
  return completeNames({
    ru: patch.ru !== undefined ? patch.ru : current.ru,
    gb: patch.gb !== undefined ? patch.gb : current.gb,
  });
}
