import { appendFileSync, readFileSync, rmSync } from 'node:fs';

/**
 * Why a test file skipped itself, said once at the end of the run (by the global teardown): Jest shows no console output of
 * a file whose tests were all skipped when it runs several files, so a console.warn there is seen only when run alone.
 */
const notesFile = (stateFile: string) => `${stateFile}.skipped`;

export function noteSkip(reason: string): void {
  const stateFile = process.env.CC_TEST_DB_STATE;
  if (stateFile) appendFileSync(notesFile(stateFile), `${reason}\n`);
  else console.warn(reason);
}

/** The run's notes, each once, and the file removed. */
export function takeSkipNotes(stateFile: string): string[] {
  let text: string;
  try {
    text = readFileSync(notesFile(stateFile), 'utf8');
  } catch {
    return [];
  }
  rmSync(notesFile(stateFile), { force: true });
  return [...new Set(text.split('\n').filter(Boolean))];
}
