import { ChildProcess, spawn } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { newApiKey } from './support/fixtures';
import { freeLoopbackPort } from './support/ports';
import { sleep } from './support/postgres';
import { REPO_ROOT, rememberPid } from './support/run-dir';

/**
 * What a newcomer meets with `npm start` on the embedded PostgreSQL (no DATABASE_URL): the API listens on 127.0.0.1 only;
 * a second start on the same DATA_DIR is refused at once, naming the running instance; a Ctrl-C (SIGINT to the whole
 * process group, the embedded server included) shuts down cleanly, without outage or server lines, and exits 0.
 */

interface Started {
  proc: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** The built service (`dist/src/main.js`) in a process group of its own, as a terminal runs `npm start`. */
function startService(dataDir: string, port: number): Started {
  let out = '';
  const proc = spawn(path.join(REPO_ROOT, 'node_modules', '.bin', 'node'), ['dist/src/main.js'], {
    cwd: REPO_ROOT,
    detached: true,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/root',
      DATA_DIR: dataDir,
      PORT: String(port),
      API_KEY: newApiKey(),
      LOG_FORMAT: 'text',
      NO_COLOR: '1',
      SHUTDOWN_DRAIN_SECONDS: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  void rememberPid(proc.pid!);
  proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr.on('data', (d: Buffer) => (out += d.toString()));
  return { proc, output: () => out, exited: new Promise((resolve) => proc.once('exit', (code) => resolve(code))) };
}

async function waitFor(what: string, check: () => boolean, timeoutMs: number, s: Started): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what} not seen within ${timeoutMs} ms:\n${s.output()}`);
    await sleep(200);
  }
}

describe('npm start on the embedded PostgreSQL', () => {
  let dataDir: string;
  const started: Started[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'cc-startup-'));
    await chmod(dataDir, 0o755);
  });
  afterAll(async () => {
    for (const s of started) if (s.proc.exitCode === null) process.kill(-s.proc.pid!, 'SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('listens on 127.0.0.1, refuses a second start on its DATA_DIR, and stops on Ctrl-C without an outage line', async () => {
    const port = await freeLoopbackPort();
    const first = startService(dataDir, port);
    started.push(first);
    await waitFor('listening', () => /listening on /.test(first.output()), 180_000, first);
    expect(first.output()).toContain(`listening on http://127.0.0.1:${port} (bound to 127.0.0.1;`);

    const secondPort = await freeLoopbackPort();
    const at = Date.now();
    const second = startService(dataDir, secondPort);
    started.push(second);
    expect(await second.exited).toBe(2);
    expect(Date.now() - at).toBeLessThan(15_000);
    expect(second.output()).toContain(
      `DATA_DIR ${dataDir} is in use by another running instance: the API on port ${port} (pid ${first.proc.pid}) runs its embedded PostgreSQL.`,
    );
    expect(second.output()).not.toMatch(/listening on/);
    // The first one still serves.
    expect((await fetch(`http://127.0.0.1:${port}/health/ready`)).status).toBe(200);

    // Ctrl-C in a terminal: SIGINT to the process group, the embedded server included.
    const signalled = first.output().length;
    process.kill(-first.proc.pid!, 'SIGINT');
    expect(await first.exited).toBe(0);
    const afterSignal = first.output().slice(signalled);
    expect(afterSignal).toMatch(/SIGINT: not ready/);
    expect(afterSignal).toMatch(/shut down/);
    expect(afterSignal).not.toMatch(/\[Outage\]|unreachable|postgres: |ERROR/);
  }, 300_000);
});
