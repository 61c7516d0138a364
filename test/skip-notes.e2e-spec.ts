import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { noteSkip, takeSkipNotes } from './support/skip-notes';

/** A file that skips itself leaves its reason for the global teardown, which prints each reason once after Jest's summary. */
describe('skip notes', () => {
  it('keeps each reason once for the end of the run, then forgets them', () => {
    const own = path.join(tmpdir(), `cc-skip-notes-${process.pid}.json`);
    const runs = process.env.CC_TEST_DB_STATE;
    process.env.CC_TEST_DB_STATE = own;
    try {
      noteSkip('Swagger UI browser test skipped: no Chromium at /nowhere');
      noteSkip('Swagger UI browser test skipped: no Chromium at /nowhere');
      noteSkip('another reason');
    } finally {
      process.env.CC_TEST_DB_STATE = runs;
    }
    expect(takeSkipNotes(own)).toEqual(['Swagger UI browser test skipped: no Chromium at /nowhere', 'another reason']);
    expect(existsSync(`${own}.skipped`)).toBe(false);
    expect(takeSkipNotes(own)).toEqual([]);
  });
});
