/** The one response shape of the API: {success, message, data}. */
export interface Envelope<T = unknown> {
  success: boolean;
  message: string;
  data: T;
}

export function ok<T>(data: T): Envelope<T> {
  return { success: true, message: '', data };
}

const COMPLETE = Symbol('complete-envelope');

/** A failure envelope; a handler may return one, and it is written as it is. */
export function fail(message: string, data: unknown = []): Envelope {
  const body = { success: false, message, data };
  Object.defineProperty(body, COMPLETE, { value: true, enumerable: false });
  return body;
}

export function isCompleteEnvelope(value: unknown): value is Envelope {
  return typeof value === 'object' && value !== null && COMPLETE in value;
}

/** What a handler's result becomes on the wire: a failure envelope as it is, else the success envelope ("nothing" is `[]`, API.md). */
export function successBody(data: unknown): unknown {
  return isCompleteEnvelope(data) ? data : ok(data === undefined || data === null ? [] : data);
}

/** List wrapper used by every paginated endpoint. `next` = offset + list.length. */
export interface Page<T> {
  list: T[];
  next: number;
  total: number;
}

export function toPage<T>(list: T[], offset: number, total: number): Page<T> {
  return { list, next: offset + list.length, total };
}
