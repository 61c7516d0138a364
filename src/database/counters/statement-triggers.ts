/** The events a counter set's statement triggers fire on, and the transition tables each one reads. */
const TRANSITION_TABLES = {
  INSERT: 'NEW TABLE AS new_rows',
  UPDATE: 'OLD TABLE AS old_rows NEW TABLE AS new_rows',
  DELETE: 'OLD TABLE AS old_rows',
  TRUNCATE: null,
} as const;

export type TriggerEvent = keyof typeof TRANSITION_TABLES;

/**
 * How a trigger function may join its transition tables: never in a nested loop (the schema's way), or any way the planner likes.
 * They have no statistics, and PL/pgSQL keeps the plan of the function's first call on a connection: a nested loop chosen for a
 * one-row statement would join a 10,000-row statement in quadratic time. A hash or merge join is linear at any size, plan cached.
 */
export type JoinPlanning = 'no-nested-loop' | 'any';

/**
 * A PL/pgSQL trigger function running `body` (statements, each on a line of its own) and returning NULL; `replace`: one of that
 * name; `joins`: how it may join its transition tables.
 */
export function triggerFunction(name: string, body: string, options: { replace?: boolean; joins?: JoinPlanning } = {}): string {
  const settings = options.joins === 'no-nested-loop' ? ' SET enable_nestloop = off' : '';
  return `
      CREATE ${options.replace ? 'OR REPLACE ' : ''}FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql${settings} AS $$
      BEGIN${body}
        RETURN NULL;
      END $$`;
}

/** A statement-level AFTER trigger on `table` calling `fn`, with the transition tables of its event. */
export function statementTrigger(trigger: string, event: TriggerEvent, table: string, fn: string): string {
  const transitions = TRANSITION_TABLES[event];
  const referencing = transitions ? `REFERENCING ${transitions} ` : '';
  return `CREATE TRIGGER ${trigger} AFTER ${event} ON ${table} ${referencing}FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`;
}
