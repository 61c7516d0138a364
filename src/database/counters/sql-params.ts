/** Positional parameters of one statement: `add` returns the placeholder of the value it appends. */
export class SqlParams {
  readonly values: unknown[] = [];
  add(v: unknown): string {
    this.values.push(v);
    return `$${this.values.length}`;
  }
}

/** `WHERE a AND b`, or nothing without conditions. */
export const whereOf = (conds: string[]) => (conds.length ? `WHERE ${conds.join(' AND ')}` : '');
