import { HttpClient } from './http';
import { percentile, round } from './load';
import { sleep } from './postgres';

export interface StallMeasurement {
  /** Median and max latency of /health/live on the idle service, just before. */
  idleP50Ms: number;
  idleMaxMs: number;
  /** Max latency of /health/live while the request ran. */
  duringMaxMs: number;
  /** duringMaxMs - idleP50Ms: how long the request kept the service's event loop from answering. */
  stallMs: number;
  probes: number;
}

/**
 * Measures event-loop stalls of the service from outside: a tight loop of `GET /health/live` on its
 * own connection while something else runs. The route does no I/O, so its latency beyond the
 * idle round trip is time the service's event loop was busy elsewhere.
 */
export class LivenessProbe {
  private readonly client: HttpClient;

  constructor(baseUrl: string) {
    this.client = new HttpClient(baseUrl, '', 1);
  }

  private async loop(stop: () => boolean): Promise<number[]> {
    const latencies: number[] = [];
    while (!stop()) {
      const t = performance.now();
      try {
        await this.client.request('GET', '/health/live', { noKey: true, timeoutMs: 120_000 });
      } catch {
        /* counted by its latency */
      }
      latencies.push(performance.now() - t);
    }
    return latencies;
  }

  async idle(ms = 1500): Promise<number[]> {
    const until = performance.now() + ms;
    return this.loop(() => performance.now() > until);
  }

  /** Runs `work` with the probe looping beside it (and 100 ms after, to catch a stall at the end). */
  async during<T>(work: () => Promise<T>): Promise<{ result: T; measurement: StallMeasurement }> {
    const idle = await this.idle();
    let done = false;
    const probing = this.loop(() => done);
    await sleep(20);
    const result = await work();
    await sleep(100);
    done = true;
    const during = await probing;
    const idleP50 = percentile(idle, 50);
    const duringMax = Math.max(...during);
    return {
      result,
      measurement: {
        idleP50Ms: round(idleP50),
        idleMaxMs: round(Math.max(...idle)),
        duringMaxMs: round(duringMax),
        stallMs: round(Math.max(0, duringMax - idleP50)),
        probes: during.length,
      },
    };
  }

  close(): void {
    this.client.close();
  }
}
