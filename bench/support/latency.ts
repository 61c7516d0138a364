export const REQUESTS = 300;
export const WARMUP = 30;

export interface Stat {
  p50: number;
  p95: number;
  total: number;
}

/** p50/p95 of sequential GETs of one list URL (after a warm-up), and the `total` it reports. */
export async function measure(url: string, apiKey: string): Promise<Stat> {
  const times: number[] = [];
  let total = -1;
  for (let i = 0; i < WARMUP + REQUESTS; i++) {
    const started = performance.now();
    const res = await fetch(url, { headers: { 'x-api-key': apiKey } });
    const body = (await res.json()) as { data: { total: number } };
    const ms = performance.now() - started;
    if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status} ${JSON.stringify(body)}`);
    total = body.data.total;
    if (i >= WARMUP) times.push(ms);
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length * 0.5)], p95: times[Math.floor(times.length * 0.95)], total };
}
