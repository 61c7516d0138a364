import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * CPU-time probes bounding how long work holds the event loop. Main-thread CPU time grows far less than wall time under
 * load but still grows (vCPUs can share a core), so these bounds run in the reliability suite on a quiet machine.
 * A full collection before each probe keeps earlier work's garbage off the bill; the work's own garbage still counts.
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
