import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * CPU-time probes for bounds on how long one piece of work holds the event loop. Main-thread CPU
 * time grows far less than wall time when other processes load the machine, but it still grows
 * (two vCPUs can share a core), which is why these bounds live in the reliability suite, run on a
 * quiet machine. A full garbage collection before each probe keeps garbage that earlier work left
 * (megabyte bodies, whole apps) from being charged to the work measured; garbage the work itself
 * makes is still collected, and counted, while it runs.
 */
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Runs a full garbage collection now. */
export function collectGarbage(): void {
  gc();
}

/** Main-thread CPU time spent since `before` (from process.threadCpuUsage()), in ms. */
export function cpuMsSince(before: NodeJS.CpuUsage): number {
  const used = process.threadCpuUsage(before);
  return (used.user + used.system) / 1000;
}

/** Main-thread CPU time of fn, in ms, after a full collection. */
export function cpuMs(fn: () => unknown): number {
  collectGarbage();
  const before = process.threadCpuUsage();
  fn();
  return cpuMsSince(before);
}

/**
 * The least main-thread CPU time of `tries` runs of fn (each after a full collection): the cost of
 * the work itself. Whatever else shares the machine (a JIT still compiling on a busy core, a
 * neighbour on the same physical core) only adds to a run, so the least run is the estimate.
 */
export function leastCpuMs(fn: () => unknown, tries = 3): number {
  let least = Infinity;
  for (let i = 0; i < tries; i++) least = Math.min(least, cpuMs(fn));
  return least;
}
