import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { buildApiDocument } from '../tools/document';
import { diagnosticsOf, looseSpots, STRICT_OPTIONS } from './loose-types';

interface Doc {
  paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, unknown> }>>;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
const squash = (name: string) => name.replace(/[^a-z0-9]/gi, '').toLowerCase();

/** The (operation, status) pairs the document declares, keyed as orval names its response types. */
function declaredResponses(doc: Doc): Map<string, string> {
  const declared = new Map<string, string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item).filter(([m]) => METHODS.has(m))) {
      for (const status of Object.keys(op.responses ?? {}))
        declared.set(`${squash(op.operationId ?? '')}:${status}`, `${method.toUpperCase()} ${path} ${status}`);
    }
  }
  return declared;
}

/** orval (the fetch client, one file) over the document, into `dir`: a generator independent of openapi-typescript. */
function runOrval(doc: object, dir: string): string {
  writeFileSync(join(dir, 'openapi.json'), JSON.stringify(doc));
  const target = join(dir, 'api.ts');
  const bin = require.resolve('orval/bin/orval');
  execFileSync(process.execPath, [bin, '--input', join(dir, 'openapi.json'), '--output', target, '--client', 'fetch', '--mode', 'single', '--quiet'], {
    cwd: dir,
    stdio: 'pipe',
  });
  return target;
}

/**
 * orval's output for the document, compiled by a strict TypeScript program: it compiles, and no
 * operation's response body type (`<operation>Response<status>`) is, or holds, `any` or `unknown`.
 * orval does not type response headers (they are a `Headers`), so only bodies are checked here.
 */
describe('the document as strict TypeScript (orval)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'orval-types-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  let program: ts.Program;
  let exported: ts.Statement[] = [];
  let declared = new Map<string, string>();

  it('compiles', async () => {
    const doc = (await buildApiDocument()) as unknown as Doc;
    declared = declaredResponses(doc);
    const target = runOrval(doc, dir);
    program = ts.createProgram([target], { ...STRICT_OPTIONS, lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'] });
    expect(diagnosticsOf(program)).toEqual([]);
    exported = [...program.getSourceFile(target)!.statements];
  }, 240_000);

  it('types every response body of every operation without any or unknown', () => {
    const checker = program.getTypeChecker();
    const loose: Record<string, string[]> = {};
    const typed = new Set<string>();
    for (const statement of exported) {
      const match = ts.isTypeAliasDeclaration(statement) ? /^(\w+)Response(\d{3}|default)$/.exec(statement.name.text) : null;
      const key = match && `${squash(match[1])}:${match[2]}`;
      if (!key || !declared.has(key)) continue;
      typed.add(key);
      const spots = looseSpots(checker, checker.getTypeAtLocation((statement as ts.TypeAliasDeclaration).name));
      if (spots.length) loose[declared.get(key)!] = [...new Set(spots)];
    }
    const untyped = [...declared].filter(([key]) => !typed.has(key)).map(([, what]) => what);
    console.log(`orval types: ${typed.size} response types of ${declared.size} declared (${Object.keys(loose).length} with any or unknown)`);
    expect(declared.size).toBeGreaterThan(500);
    expect(untyped).toEqual([]);
    expect(loose).toEqual({});
  });

  it('types the parameters and request body of every operation function without any or unknown', () => {
    const checker = program.getTypeChecker();
    const loose: Record<string, string[]> = {};
    let functions = 0;
    for (const statement of exported.filter(ts.isVariableStatement)) {
      for (const declaration of statement.declarationList.declarations) {
        const signature = checker.getTypeAtLocation(declaration.name).getCallSignatures()[0];
        if (!signature || !ts.isIdentifier(declaration.name) || /Url$/.test(declaration.name.text)) continue;
        functions++;
        for (const parameter of signature.getParameters().filter((p) => p.name !== 'options')) {
          const spots = looseSpots(checker, checker.getTypeOfSymbol(parameter));
          if (spots.length) loose[`${declaration.name.text}(${parameter.name})`] = [...new Set(spots)];
        }
      }
    }
    console.log(`orval types: ${functions} operation functions (${Object.keys(loose).length} with an any or unknown parameter)`);
    expect(functions).toBeGreaterThan(60);
    expect(loose).toEqual({});
  });
});
