/** The events a counter set's statement triggers fire on, and the transition tables each one reads. */
const TRANSITION_TABLES = {
  INSERT: 'NEW TABLE AS new_rows',
  UPDATE: 'OLD TABLE AS old_rows NEW TABLE AS new_rows',
  DELETE: 'OLD TABLE AS old_rows',
  TRUNCATE: null,
} as const;

export type TriggerEvent = keyof typeof TRANSITION_TABLES;

/** How a trigger function joining transition tables plans its statement: per statement (the schema's way), or cached per connection. */
export type JoinPlanning = 'per-statement' | 'cached';

/** A PL/pgSQL trigger function running `body` (statements, each on a line of its own) and returning NULL; `replace`: one of that name. */
export function triggerFunction(name: string, body: string, replace = false): string {
  return `
      CREATE ${replace ? 'OR REPLACE ' : ''}FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
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

/**
 * A statement joining transition tables, run by EXECUTE unless `cached`: planned for the sizes of this statement's tables. PL/pgSQL would keep the plan
 * of the first call on the connection, and a nested loop chosen for one row joins ten thousand rows in quadratic time.
 */
export function joiningStatement(statement: string, planning: JoinPlanning): string {
  return planning === 'cached'
    ? `${statement};`
    : `
        EXECUTE $stmt$${statement}$stmt$;`;
}
