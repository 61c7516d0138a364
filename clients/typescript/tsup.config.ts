import { defineConfig } from 'tsup';

/**
 * The published package: ES module (`.mjs`) and CommonJS (`.js`) builds of src/index.ts with their
 * declarations (`.d.mts`, `.d.ts`), for Node 20 and later. Run from this folder by `npm run sdk:pack`;
 * `openapi-fetch`, a dependency in package.json, stays an import of the builds, not bundled in.
 */
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  outDir: 'dist',
  target: 'node20',
  platform: 'node',
  // `node:crypto` as written: runtimes beside Node (Deno, Workers' nodejs_compat) know only the prefixed name.
  removeNodeProtocol: false,
  tsconfig: 'tsconfig.build.json',
  dts: true,
  clean: true,
  sourcemap: false,
});
