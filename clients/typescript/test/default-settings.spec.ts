import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import ts from 'typescript';
import { buildApiDocument } from '../tools/document';
import { diagnosticsOf, STRICT_OPTIONS } from './loose-types';

/** The body of the README's lead create (`api.POST('/v2/lead/create', { body: ... })`), as written there. */
function readmeLeadCreateBody(): string {
  const readme = readFileSync('README.md', 'utf8');
  const found = /\.POST\('\/v2\/lead\/create', \{ body: (\{[^\n]*\}) \}\)/.exec(readme);
  if (!found) throw new Error("README.md has no api.POST('/v2/lead/create', { body: ... }) on one line");
  return found[1];
}

/**
 * Types generated with openapi-typescript's default settings (an integrator's `npx openapi-typescript`,
 * without the `defaultNonNullable: false` of sdk:generate) take the README's lead create as written:
 * no request field is made required by a `default` (the document has none in request schemas).
 */
describe("the README's lead create under openapi-typescript's default settings", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'default-settings-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('compiles', async () => {
    const doc = await buildApiDocument();
    writeFileSync(join(dir, 'schema.ts'), astToString(await openapiTS(structuredClone(doc) as OpenAPI3)));
    const probe = [
      "import type { paths } from './schema';",
      "type Body = NonNullable<paths['/v2/lead/create']['post']['requestBody']>['content']['application/json'];",
      `export const body: Body = ${readmeLeadCreateBody()};`,
      '',
    ].join('\n');
    writeFileSync(join(dir, 'probe.ts'), probe);
    expect(diagnosticsOf(ts.createProgram([join(dir, 'probe.ts')], STRICT_OPTIONS))).toEqual([]);
  });
});
