// @ts-check
import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/** typescript-eslint's recommended type-aware rules over the TypeScript sources; Prettier owns formatting. */
export default tseslint.config(
  {
    ignores: [
      'dist/',
      'node_modules/',
      '.citus/',
      'coverage/',
      'bench/results/',
      'test/output/',
      'docs/',
      '**/*.js',
      '**/*.mjs',
      'clients/typescript/src/schema.ts',
      // The client package's build, and the package test's integrator code, which imports the
      // installed package and is type-checked by that test in its own folder.
      'clients/typescript/dist/',
      'clients/typescript/test/package/',
    ],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Unused parameters and destructured leftovers named `_x` are deliberate.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      // A promise left running must say so (`void`), and one awaited in a callback must be awaited.
      '@typescript-eslint/no-floating-promises': 'error',
    },
  },
  {
    // A newcomer reads a file whole and a function at a glance.
    files: ['src/**/*.ts', 'clients/typescript/src/**/*.ts', 'clients/typescript/tools/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'max-lines': ['error', { max: 300 }],
      'max-lines-per-function': ['error', { max: 60 }],
    },
  },
  {
    // Lower floors never import higher ones: the database kit and common/ serve every module, so they import none of them,
    // nor the assembly that knows them all (src/assembly/).
    files: ['src/database/**/*.ts', 'src/common/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)(modules|assembly)(/|$)', message: 'src/database/ and src/common/ import no module and not src/assembly/.' }] },
      ],
    },
  },
  {
    // A migration is frozen the day it lands: it imports TypeORM and other migrations only, never live code that may change later.
    files: ['migrations/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(?!typeorm$|\\./)', message: 'A migration imports only typeorm and other migrations; keep what it runs in it as text.' }] },
      ],
    },
  },
  {
    // Tests: supertest bodies and raw rows are `any` by nature.
    files: ['test/**/*.ts', '**/*.spec.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  prettier,
);
