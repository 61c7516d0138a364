import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';

/** An error PostgreSQL raises, as the app receives it. */
export interface RaisedError {
  sqlstate: string;
  message: string;
  detail?: string;
}

export interface InsertFault {
  /** INSERT statements into the table since the fault was set, the failed ones included. */
  attempts(): Promise<number>;
  remove(): Promise<void>;
}

const literal = (s: string) => `'${s.replace(/'/g, "''")}'`;

/**
 * Makes the next `times` INSERT statements into `table` fail inside PostgreSQL, so the app meets
 * the failure as it would in production: a RaisedError, or 'connection lost' (the session running
 * the statement is terminated). A sequence counts the statements: a rollback does not undo it.
 */
export async function failInserts(ds: DataSource, table: string, times: number, failure: RaisedError | 'connection lost'): Promise<InsertFault> {
  const name = `test_fault_${randomBytes(4).toString('hex')}`;
  const fail =
    failure === 'connection lost'
      ? `PERFORM pg_terminate_backend(pg_backend_pid()); PERFORM pg_sleep(10);`
      : `RAISE EXCEPTION USING ERRCODE = ${literal(failure.sqlstate)}, MESSAGE = ${literal(failure.message)}, DETAIL = ${literal(failure.detail ?? '')};`;
  await ds.query(`CREATE SEQUENCE ${name}`);
  await ds.query(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN IF nextval('${name}') <= ${times} THEN ${fail} END IF; RETURN NULL; END $$`);
  await ds.query(`CREATE TRIGGER ${name} BEFORE INSERT ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION ${name}()`);
  return {
    attempts: async () => Number((await ds.query(`SELECT CASE WHEN is_called THEN last_value ELSE 0 END AS n FROM ${name}`))[0].n),
    remove: async () => {
      await ds.query(`DROP TRIGGER ${name} ON ${table}`);
      await ds.query(`DROP FUNCTION ${name}()`);
      await ds.query(`DROP SEQUENCE ${name}`);
    },
  };
}
