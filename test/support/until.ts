/** Polls `check` every 100 ms until it holds (true) or `ms` pass (false): for work a background sweep does. */
export async function untilTrue(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}
