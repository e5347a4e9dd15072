// Lint enforces the allowed imports of ../shared/DESIGN.md ("Allowed imports"): each folder may only
// reach the layers below it. tsconfig.shared.json (no DOM, no Node types) backs the shared/ rule.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const nodeBuiltins = ['node:*', 'fs', 'fs/*', 'path', 'os', 'http', 'https', 'crypto', 'child_process', 'stream', 'url', 'net'];
const rule = (patterns) => ['error', { patterns }];
const ban = (group, message) => ({ group, message });

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', '.data/**', 'bench/.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-template-curly-in-string': 'off',
      'import/no-default-export': 'off',
    },
  },
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': rule([
        ban(['electron', 'electron/*', 'react', 'react-dom', ...nodeBuiltins], 'shared/ is pure: no Node, DOM, Electron or React.'),
        ban(['**/electron/**', '**/renderer/**', '**/service/**'], 'shared/ imports nothing above it.'),
      ]),
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}', 'electron/web/page/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': rule([
        ban(['electron', 'electron/*', ...nodeBuiltins], 'The page runs sandboxed: no Node and no Electron.'),
        ban(['**/electron/core/**', '**/electron/main/**', '**/service/**'], 'The page may import shared/ only.'),
      ]),
    },
  },
  {
    files: ['electron/core/**/*.ts', 'electron/web/**/*.ts'],
    ignores: ['electron/web/page/**'],
    rules: {
      'no-restricted-imports': rule([
        ban(['electron', 'electron/*'], 'Only electron/main and electron/preload may import electron.'),
        ban(['**/renderer/**', '**/electron/main/**', '**/electron/preload/**'], 'core and web never import the UI or Electron adapters.'),
        ban(['**/service/*/**', '**/service/*.ts', '!**/service/index'], 'Embed the local service through its public entry service/index only.'),
      ]),
    },
  },
  {
    // Tests, and the fixtures only tests import (testing/ folders), may also use the service's test fixtures
    // (a loopback sshd, a person answering a consent page, the hosted-like deployment).
    files: ['electron/core/**/*.test.ts', 'electron/web/**/*.test.ts', 'electron/core/**/testing/**/*.ts'],
    rules: {
      'no-restricted-imports': rule([
        ban(['electron', 'electron/*'], 'Only electron/main and electron/preload may import electron.'),
        ban(['**/renderer/**', '**/electron/main/**', '**/electron/preload/**'], 'core and web never import the UI or Electron adapters.'),
        ban(['**/service/*/**', '**/service/*.ts', '!**/service/index', '!**/service/testing/**'], 'Embed the local service through service/index (tests: and service/testing).'),
      ]),
    },
  },
  {
    files: ['electron/preload/**/*.ts'],
    rules: {
      'no-restricted-imports': rule([
        ban([...nodeBuiltins], 'The sandboxed preload can only use electron and shared/.'),
        ban(['**/electron/core/**', '**/electron/main/**', '**/service/**', '**/renderer/**'], 'The preload may import shared/ and electron only.'),
      ]),
    },
  },
  {
    files: ['electron/main/**/*.ts'],
    rules: {
      'no-restricted-imports': rule([
        ban(['**/renderer/**', '**/service/**'], 'electron/main composes electron/core; it never reaches the service or the UI.'),
      ]),
    },
  },
  {
    files: ['service/**/*.ts'],
    rules: {
      'no-restricted-imports': rule([
        ban(['electron', 'electron/*'], 'The local service is plain Node.'),
        ban(['**/electron/**', '**/renderer/**'], 'The service imports shared/ only.'),
      ]),
    },
  },
);
