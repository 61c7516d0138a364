import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Files one run of the suite shares between its global setup, the scenario files (each in its own
 * module registry) and the teardown: the template cluster, the service logs, the figures each
 * scenario measured and the personal data it sent (for the log check).
 */

export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
export const RESULTS_DIR = path.join(REPO_ROOT, 'test', 'reliability', 'results');
/** Service output of the last run, one file per service start (read by logs.rel-spec.ts). */
export const LOG_DIR = path.join(RESULTS_DIR, 'logs');

export interface RunState {
  runDir: string;
  /** Migrated and seeded cluster, stopped; each scenario runs on a copy. */
  templateDir: string;
  startedAt: string;
  /** The run's API_KEY (all scopes), registered in the template. */
  apiKey: string;
}

export function runState(): RunState {
  const file = process.env.CC_REL_STATE;
  if (!file || !existsSync(file)) throw new Error('the reliability suite needs its global setup: run it with npm run test:reliability');
  return JSON.parse(readFileSync(file, 'utf8')) as RunState;
}

/** A process's start time (clock ticks since boot): with the pid, it names that process alone. */
export function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/** Every postmaster and service this run started, so the teardown can end leftovers (and nothing else). */
export async function rememberPid(pid: number): Promise<void> {
  const file = process.env.CC_REL_STATE ? path.join(runState().runDir, 'pids') : null;
  if (file) await appendFile(file, `${pid} ${processStart(pid)}\n`);
}

/** Databases this run created on a PostgreSQL server, so the teardown can drop any a failed scenario left (and no other). */
export async function rememberDatabase(adminUrl: string, name: string): Promise<void> {
  await appendFile(path.join(runState().runDir, 'databases'), `${JSON.stringify({ adminUrl, name })}\n`);
}

export function rememberedDatabases(runDir: string): { adminUrl: string; name: string }[] {
  const file = path.join(runDir, 'databases');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { adminUrl: string; name: string });
}

/** Remembered processes still running (same pid and start time). */
export function ourLiveProcesses(runDir: string): number[] {
  const file = path.join(runDir, 'pids');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => l.split(' '))
    .filter(([pid, start]) => Number(pid) > 0 && start !== 'null' && processStart(Number(pid)) === start)
    .map(([pid]) => Number(pid));
}

/** One scenario's figures: written as it goes, so a failing check still leaves its numbers. */
export type Figures = Record<string, unknown>;

export async function writeFigures(scenario: string, figures: Figures): Promise<void> {
  const dir = path.join(runState().runDir, 'figures');
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, `${scenario}.json`), JSON.stringify(figures, null, 2));
}

export function readAllFigures(runDir: string): Record<string, Figures> {
  const dir = path.join(runDir, 'figures');
  if (!existsSync(dir)) return {};
  const out: Record<string, Figures> = {};
  for (const f of readdirSync(dir).sort()) {
    if (f.endsWith('.json')) out[f.replace(/\.json$/, '')] = JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Figures;
  }
  return out;
}

/** Personal data and secrets a scenario sent: none of it may appear in the service's output. */
export interface Needles {
  phones: string[];
  names: string[];
  emails: string[];
  secrets: string[];
}

export const emptyNeedles = (): Needles => ({ phones: [], names: [], emails: [], secrets: [] });

export async function writeNeedles(scenario: string, needles: Needles): Promise<void> {
  const dir = path.join(runState().runDir, 'needles');
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, `${scenario}.json`), JSON.stringify(needles));
}

export function readAllNeedles(runDir: string): Needles {
  const all = emptyNeedles();
  const dir = path.join(runDir, 'needles');
  if (!existsSync(dir)) return all;
  for (const f of readdirSync(dir)) {
    const n = JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Needles;
    for (const k of Object.keys(all) as (keyof Needles)[]) all[k].push(...n[k]);
  }
  return all;
}
