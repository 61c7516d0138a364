import { ChildProcess, fork } from 'node:child_process';
import path from 'node:path';

/**
 * Servers under load run in their own process, as in production: the load generator (autocannon,
 * in the bench process) does not share their event loop, and their CPU time can be read alone.
 * A child answers commands sent over the IPC channel (see `serveCommands`).
 */
export interface ChildServer<R> {
  pid: number;
  ready: R;
  call<T = unknown>(cmd: string, arg?: unknown): Promise<T>;
  stop(): Promise<void>;
}

interface Reply {
  id?: number;
  ready?: unknown;
  result?: unknown;
  error?: string;
}

/** Forks `script` (relative to this directory, or absolute: another build's server) and waits until it is ready. */
export async function startChild<R>(script: string, env: Record<string, string>, execArgv: string[] = []): Promise<ChildServer<R>> {
  const child: ChildProcess = fork(path.resolve(__dirname, script), [], {
    env: { ...process.env, ...env },
    execArgv: ['--enable-source-maps', ...execArgv],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let next = 1;
  const ready = await new Promise<R>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before it was ready`)));
    child.on('message', (m: Reply) => {
      if (m.ready !== undefined) return resolve(m.ready as R);
      const p = m.id !== undefined ? pending.get(m.id) : undefined;
      if (!p) return;
      pending.delete(m.id!);
      if (m.error !== undefined) p.reject(new Error(`${script}: ${m.error}`));
      else p.resolve(m.result);
    });
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    pid: child.pid!,
    ready,
    call: <T>(cmd: string, arg?: unknown) =>
      new Promise<T>((resolve, reject) => {
        const id = next++;
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        child.send({ id, cmd, arg });
      }),
    stop: async () => {
      if (child.exitCode === null) child.send({ id: 0, cmd: 'stop' });
      await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

/** In a child: announce readiness, then run commands from the parent (`stop` calls `onStop`, then exits). */
export function serveCommands(ready: unknown, commands: Record<string, (arg: unknown) => Promise<unknown>>, onStop: () => Promise<void>): void {
  const handle = async (m: { id: number; cmd: string; arg?: unknown }) => {
    if (m.cmd === 'stop') {
      await onStop().catch(() => undefined);
      process.exit(0);
    }
    const fn = commands[m.cmd];
    try {
      if (!fn) throw new Error(`unknown command ${m.cmd}`);
      process.send!({ id: m.id, result: (await fn(m.arg)) ?? null });
    } catch (err) {
      process.send!({ id: m.id, error: (err as Error).stack ?? String(err) });
    }
  };
  process.on('message', (m: { id: number; cmd: string; arg?: unknown }) => void handle(m));
  process.send!({ ready });
}
