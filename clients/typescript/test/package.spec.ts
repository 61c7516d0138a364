import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const read = (file: string): unknown => JSON.parse(readFileSync(join(__dirname, '..', file), 'utf8'));

/** The published package's version says which version of the API document it speaks. */
describe('clients/typescript package.json', () => {
  it("has the document's info.version as its major.minor", () => {
    const { version } = read('package.json') as { version: string };
    const { info } = read('openapi.json') as { info: { version: string } };
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(version.split('.').slice(0, 2).join('.')).toBe(info.version);
  });
});
