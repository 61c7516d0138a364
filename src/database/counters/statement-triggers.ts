/** The events a counter set's statement triggers fire on, and the transition tables each one reads. */
const TRANSITION_TABLES = {
  INSERT: 'NEW TABLE AS new_rows',
  UPDATE: 'OLD TABLE AS old_rows NEW TABLE AS new_rows',
  DELETE: 'OLD TABLE AS old_rows',
  TRUNCATE: null,
} as const;

export type TriggerEvent = keyof typeof TRANSITION_TABLES;

/** A PL/pgSQL trigger function running `body` (statements, each on a line of its own) and returning NULL. */
export function triggerFunction(name: string, body: string): string {
  return `
      CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
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
