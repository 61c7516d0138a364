import { GENERATED_FILES, generateClientFiles, readCommittedFile } from '../tools/generate';

/** The committed document and types are what `npm run sdk:generate` writes from the code as it is. */
describe('clients/typescript generated files', () => {
  it('are current: regenerating from the app changes nothing', async () => {
    const fresh = await generateClientFiles();
    const stale = GENERATED_FILES.filter((file) => readCommittedFile(file) !== fresh[file]);
    expect({ stale, fix: stale.length ? 'npm run sdk:generate' : undefined }).toEqual({ stale: [], fix: undefined });
    expect(JSON.parse(fresh['openapi.json'])).toHaveProperty('paths./v2/lead/create.post');
    expect(fresh['src/schema.ts']).toContain('"/v2/lead/create": {');
  }, 60_000);
});
