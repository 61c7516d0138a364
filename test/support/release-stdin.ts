/**
 * Jest builds `node:process` as a synthetic ES module by reading every export, `stdin` included, so a module that imports
 * `node:process` (supports-color, through openapi-typescript) opens the worker's stdin: a pipe that then keeps the worker
 * alive after its last file, until Jest kills it ("A worker process has failed to exit gracefully"). No test reads the
 * worker's stdin: after each file it no longer holds the worker. Run in band, stdin may be a file or /dev/null (an fs stream,
 * which holds nothing and has no `unref`).
 */
afterAll(() => {
  (process.stdin as { unref?: () => void }).unref?.();
});
