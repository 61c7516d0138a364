import ts from 'typescript';

/** The compiler options both strict-type checks compile generated types with. */
export const STRICT_OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  types: [],
  target: ts.ScriptTarget.ES2022,
};

/** Where `any` or `unknown` hides in a type, as paths such as "data.list[].customValues[string]". */
export function looseSpots(checker: ts.TypeChecker, type: ts.Type, at = '', seen = new Set<ts.Type>()): string[] {
  if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return [at || '(the whole type)'];
  if (seen.has(type)) return [];
  seen.add(type);
  if (type.isUnionOrIntersection()) return type.types.flatMap((part) => looseSpots(checker, part, at, seen));
  if (checker.isArrayType(type) || checker.isTupleType(type)) {
    return checker.getTypeArguments(type as ts.TypeReference).flatMap((item) => looseSpots(checker, item, `${at}[]`, seen));
  }
  if (!(type.flags & ts.TypeFlags.Object)) return [];
  const properties = checker.getPropertiesOfType(type).flatMap((p) => looseSpots(checker, checker.getTypeOfSymbol(p), at ? `${at}.${p.name}` : p.name, seen));
  const indexes = checker.getIndexInfosOfType(type).flatMap((info) => looseSpots(checker, info.type, `${at}[string]`, seen));
  return [...properties, ...indexes];
}

/** Compiler messages of a program, flattened to text. */
export const diagnosticsOf = (program: ts.Program) => ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
