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

/** `column = $n` for each field of `patch` that is not undefined (the values go into `p`), for an UPDATE's SET list. */
export function assignments<T extends object>(patch: T, columns: Record<keyof T, string>, p: SqlParams): string[] {
  return (Object.entries(patch) as [keyof T, unknown][]).filter(([, v]) => v !== undefined).map(([k, v]) => `${columns[k]} = ${p.add(v)}`);
}
