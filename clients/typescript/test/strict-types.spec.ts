import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { buildApiDocument } from '../tools/document';
import { typesOf } from '../tools/generate';
import { diagnosticsOf, looseSpots, STRICT_OPTIONS } from './loose-types';

interface Doc {
  paths: Record<
    string,
    Record<string, { requestBody?: unknown; responses?: Record<string, { content?: Record<string, unknown>; headers?: Record<string, unknown> }> }>
  >;
}
type Side = 'response' | 'request';

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
const quote = (s: string) => JSON.stringify(s);

/** One type alias per response body and declared response header, and per operation's parameters and request body. */
function probeOf(doc: Doc): { source: string; names: Map<string, { what: string; side: Side }> } {
  const names = new Map<string, { what: string; side: Side }>();
  const lines = ["import type { paths } from './schema';"];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item).filter(([m]) => METHODS.has(m))) {
      const operation = `paths[${quote(path)}][${quote(method)}]`;
      const alias = (what: string, side: Side, type: string) => {
        const name = `T${names.size}`;
        names.set(name, { what: `${method.toUpperCase()} ${path} ${what}`, side });
        lines.push(`export type ${name} = ${type};`);
      };
      alias('parameters', 'request', `${operation}['parameters']`);
      if (op.requestBody) alias('request body', 'request', `NonNullable<${operation}['requestBody']>['content']`);
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        const base = `${operation}['responses'][${quote(status)}]`;
        const add = (what: string, type: string) => alias(`${status} ${what}`, 'response', type);
        for (const media of Object.keys(response.content ?? {})) add(media, `${base}['content'][${quote(media)}]`);
        for (const header of Object.keys(response.headers ?? {})) add(`header ${header}`, `${base}['headers'][${quote(header)}]`);
      }
    }
  }
  return { source: `${lines.join('\n')}\n`, names };
}

/**
 * openapi-typescript's output for the document, compiled by a strict TypeScript program: it
 * compiles, and no response body or declared response header of any operation is, or holds, `any` or `unknown`.
 */
describe('the document as strict TypeScript (openapi-typescript)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'strict-types-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const loose: Record<Side, Record<string, string[]>> = { response: {}, request: {} };
  let counts: Record<Side, number> = { response: 0, request: 0 };

  it('compiles, and types every response without any or unknown', async () => {
    const doc = (await buildApiDocument()) as unknown as Doc;
    writeFileSync(join(dir, 'schema.ts'), await typesOf(doc));
    const { source, names } = probeOf(doc);
    writeFileSync(join(dir, 'probe.ts'), source);
    const program = ts.createProgram([join(dir, 'probe.ts')], STRICT_OPTIONS);
    expect(diagnosticsOf(program)).toEqual([]);

    const checker = program.getTypeChecker();
    const never: string[] = [];
    counts = { response: 0, request: 0 };
    for (const statement of program.getSourceFile(join(dir, 'probe.ts'))!.statements) {
      if (!ts.isTypeAliasDeclaration(statement)) continue;
      const { what, side } = names.get(statement.name.text)!;
      counts[side]++;
      const type = checker.getTypeAtLocation(statement.name);
      if (type.flags & ts.TypeFlags.Never) never.push(what);
      const spots = looseSpots(checker, type);
      if (spots.length) loose[side][what] = [...new Set(spots)];
    }
    console.log(
      `strict types: ${counts.response} response types (${Object.keys(loose.response).length} with any or unknown), ` +
        `${counts.request} request types (${Object.keys(loose.request).length} with any or unknown), ${never.length} never`,
    );
    expect(counts.response).toBeGreaterThan(80);
    expect(never).toEqual([]);
    expect(loose.response).toEqual({});
  }, 240_000);

  it('types every parameter and request body without any or unknown', () => {
    expect(counts.request).toBeGreaterThan(80);
    expect(loose.request).toEqual({});
  });
});
