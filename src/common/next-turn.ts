/** Yields to the event loop (I/O and timers run) before going on: long loops over a request's items call it every so many items. */
export const nextTurn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));
