import { readdirSync, readFileSync } from 'node:fs';

/** Linux clock ticks per second (USER_HZ); 100 on every mainstream kernel. */
const TICKS_PER_SECOND = 100;

interface ProcStat {
  ppid: number;
  /** utime + stime, ms. */
  own: number;
  /** cutime + cstime (children that exited and were waited for), ms. */
  children: number;
}

function procStat(pid: number): ProcStat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid ..."; comm may contain spaces, so split after the last ')'.
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const ms = (i: number) => (Number(f[i]) * 1000) / TICKS_PER_SECOND;
    return { ppid: Number(f[1]), own: ms(11) + ms(12), children: ms(13) + ms(14) };
  } catch {
    return null;
  }
}

/** CPU time (ms, all threads) a process has used so far. */
export function processCpuMs(pid: number): number {
  return procStat(pid)?.own ?? 0;
}

/**
 * CPU time (ms) a PostgreSQL cluster has used so far: the postmaster, its live children (backends,
 * WAL writer, checkpointer...) and the children it has already reaped (short-lived workers).
 */
export function clusterCpuMs(postmasterPid: number): number {
  const postmaster = procStat(postmasterPid);
  if (!postmaster) return 0;
  let total = postmaster.own + postmaster.children;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const s = procStat(Number(entry));
    if (s && s.ppid === postmasterPid) total += s.own;
  }
  return total;
}
