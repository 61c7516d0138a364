import type { DataSource, EntityManager } from 'typeorm';
import type { Queryable } from '../read-database';

/** A statement as it is sent: its text and positional parameters. */
export interface Statement {
  sql: string;
  params: unknown[];
}

/** What a builder returns: a statement, its text alone, or several of either. */
type Built = Statement | string | (Statement | string)[];

/** What a capture's heading says: the function, why these inputs (optional), and the inputs. */
export interface CaptureLabel {
  /** The function, as `Class.method` or `SET.method`. */
  fn: string;
  /** What these inputs show (which branch of the builder). */
  note?: string;
  /** The inputs it is called with, in a reader's words. */
  inputs: string;
}

/** How a captured function is called and what it generates. */
export interface SqlCapture extends CaptureLabel {
  /** The statements, in the order they are sent. */
  statements(): Promise<Statement[]>;
}

/** One checked-in `.sql` file (a path from the repository root) and the captures it holds. */
export interface SqlSnapshot {
  file: string;
  captures: SqlCapture[];
}

/** The rows the recorder answers every statement with: `n: 1` lets a list go on from its count to its page. */
const ONE_ROW = [{ n: 1 }];

/**
 * Stands in for a DataSource, EntityManager or query runner: records each statement and answers
 * `answer(sql)` (by default ONE_ROW). Runs a transaction's work on itself.
 */
export class RecordingDatabase implements Queryable {
  readonly statements: Statement[] = [];

  constructor(private readonly answer: (sql: string) => unknown[] = () => ONE_ROW) {}

  query(sql: string, params: unknown[] = []): Promise<unknown[]> {
    this.statements.push({ sql, params });
    return Promise.resolve(this.answer(sql));
  }

  transaction<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return work(this.asManager());
  }

  /** For repositories and helpers typed to take the DataSource. */
  asDataSource(): DataSource {
    return this as unknown as DataSource;
  }

  /** For methods typed to take an EntityManager (they only call `query`). */
  asManager(): EntityManager {
    return this as unknown as EntityManager;
  }
}

/** A capture of statements a pure builder returns. */
export function built(label: CaptureLabel, build: () => Built): SqlCapture {
  const asStatement = (b: Statement | string): Statement => (typeof b === 'string' ? { sql: b, params: [] } : b);
  return { ...label, statements: () => Promise.resolve([build()].flat().map(asStatement)) };
}

/**
 * A capture of the statements a function sends to its database: called with a RecordingDatabase
 * (answering `answer(sql)`, by default ONE_ROW); one that sends nothing is an error.
 */
export function sent(label: CaptureLabel, send: (db: RecordingDatabase) => Promise<unknown>, answer?: (sql: string) => unknown[]): SqlCapture {
  return {
    ...label,
    async statements() {
      const db = new RecordingDatabase(answer);
      await send(db);
      if (db.statements.length === 0) throw new Error(`${label.fn} (${label.inputs}) sent no statement`);
      return db.statements;
    },
  };
}
