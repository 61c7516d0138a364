import { progressLine, type Send, simulateDialer } from './dialer-simulator';

/**
 * `npm run demo:dialer`: a simulated dialer against a running service (the demo of `npm start`), with a live progress line.
 * KEY: a key with the telephony scope (the key `npm start` printed has every scope); BASE_URL (default http://localhost:3000);
 * SECONDS (default 30); BATCH leads per claim (default 20).
 */
async function main(): Promise<void> {
  const key = process.env.KEY;
  if (!key) throw new Error('set KEY to a key with the telephony scope (the one npm start printed)');
  const base = (process.env.BASE_URL ?? 'http://localhost:3000').replace(/\/$/, '');
  const seconds = Number(process.env.SECONDS ?? 30);
  const send: Send = async (method, path, body) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { 'X-Api-Key': key, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as { data?: unknown } };
  };
  const end = Date.now() + seconds * 1000;
  const stats = await simulateDialer(send, {
    dialerId: `demo-${process.pid}`,
    batch: Number(process.env.BATCH ?? 20),
    rounds: Number.MAX_SAFE_INTEGER,
    until: () => Date.now() >= end,
    idleMs: 1000,
    onRound: (s) => process.stdout.write(`\r${progressLine(s)}`),
  });
  process.stdout.write(`\n${stats.claimed === 0 ? 'no lead was due (outside the demo orders’ hours?): try again later\n' : ''}`);
}

main().catch((err: Error) => {
  console.error(`\n${err.message}`);
  process.exit(1);
});
