// ESLint gate (`npm run lint`, part of `npm test`, next to Prettier's check of the layout): the line length
// of every JavaScript and TypeScript file, and type-aware typescript-eslint over the TypeScript of
// src/, workflows/, activities/, test/ and bench/. Kept small on purpose: typescript-eslint's
// `recommended` set, the promise rules that catch lost errors, no import cycles (type imports counted)
// among files nor among folders (the floors), and the import rules that keep workflow code
// deterministic (Temporal replays it inside a sandbox), the workflows behind the Temporal contract,
// and the tooling out of production code.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import stylistic from '@stylistic/eslint-plugin';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';
import { folderCycles } from './src/tooling/lintFolderCycles.mjs';
import { importCycles } from './src/tooling/lintImportCycles.mjs';

// Node built-ins under both spellings (`fs` and `node:fs`); `node:*` is also caught by a pattern below.
const NODE_BUILTINS = builtinModules.filter((name) => !name.startsWith('_'));

// Packages that do I/O or read the clock/environment: never imported at run time by code that runs in
// the workflow sandbox.
const IO_PACKAGES = [
  'pg',
  'pino',
  'koa',
  'openai',
  'prom-client',
  '@temporalio/client',
  '@temporalio/worker',
  '@temporalio/activity',
  '@temporalio/testing',
];

/**
 * Folder cycles allowed by `project/folder-cycles`, each with why it cannot be helped: `rooms` (as the
 * rule names them: `src/api/`, `src/config.ts`, `workflows/`…) may form a cycle among themselves.
 * None today; keep it that way.
 */
const FOLDER_CYCLE_EXCEPTIONS = [];

// Production code (src/ outside src/tooling/, workflows/, activities/) runs in the API and the workers:
// it never imports the tooling (installer, launchers, dev servers, lint rules), which the build leaves out.
const noToolingImports = {
  regex: String.raw`^(\.{1,2}/)+(src/)?tooling/`,
  message:
    'Production code does not import src/tooling/ (installer, launchers, dev servers, lint rules): ' +
    'move what it needs out of the tooling.',
};

// The API and the activities reach workflows through the Temporal contract (src/temporal/contract.ts):
// names, signals, queries, inputs. A workflow file imported there drags the workflow module graph
// (its activity proxies, the steps) into processes that never run it.
const noWorkflowImports = {
  regex: String.raw`^(\.\./)+workflows/`,
  message: 'Import the Temporal contract (src/temporal/contract.ts), not a workflow file.',
};

// The modules of src/ that workflow code may import at run time (sandbox-safe), as `src/<name>.js`.
const SANDBOX_SAFE_MODULES = [
  'shared',
  'temporal/contract',
  'storage/keys',
  'providers/errors',
  'webhooks/retryPolicy',
  'webhooks/events',
  'webhooks/attemptFailures',
  'progress/percent',
];

const noIoImports = {
  paths: [...NODE_BUILTINS, ...IO_PACKAGES].map((name) => ({
    name,
    allowTypeImports: true,
    message:
      'Workflow code runs in the deterministic sandbox: no Node built-ins or I/O packages (import type is fine).',
  })),
  patterns: [
    {
      group: ['node:*', '@aws-sdk/*', '@hyperframes/*', '@koa/*'],
      allowTypeImports: true,
      message:
        'Workflow code runs in the deterministic sandbox: no Node built-ins or I/O packages (import type is fine).',
    },
  ],
};

export default defineConfig(
  {
    ignores: ['node_modules/**', 'data/**', 'test-results/**', 'dist/**'],
  },
  {
    // Lines a reader's editor shows whole. Prettier breaks code at 120 columns; what it cannot break (comments,
    // strings, template literals) is broken by hand. A line holding a URL may run longer. Plain JavaScript gets
    // only this rule: it sits outside the typed program (the browser asset src/dashboard/assets/dashboard.js,
    // the dependency-free install script, the render child's entry, the configuration files).
    files: ['**/*.ts', '**/*.js', '**/*.mjs', '**/*.cjs'],
    plugins: { '@stylistic': stylistic },
    rules: { '@stylistic/max-len': ['error', { code: 120, ignoreUrls: true }] },
  },
  {
    files: ['**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    plugins: { project: { rules: { 'import-cycles': importCycles, 'folder-cycles': folderCycles } } },
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // A promise nobody awaits loses its rejection (an unhandled rejection kills the process).
      // Intentional fire-and-forget is written `void promise` next to a comment saying why.
      '@typescript-eslint/no-floating-promises': 'error',
      // An async function where a void callback is expected (event emitters, Koa/timer callbacks):
      // its rejection goes nowhere.
      '@typescript-eslint/no-misused-promises': 'error',
      // Cycles through any import, type-only ones included (src/tooling/lintImportCycles.mjs).
      'project/import-cycles': 'error',
      // No cycle among the folders of src/, workflows/, activities/ and bench/ (src/tooling/lintFolderCycles.mjs):
      // every import between them points down a floor.
      'project/folder-cycles': ['error', { exceptions: FOLDER_CYCLE_EXCEPTIONS }],
      // tsc already reports unused locals and parameters (noUnusedLocals/noUnusedParameters), and
      // undefined names: the ESLint copies only repeat it.
      '@typescript-eslint/no-unused-vars': 'off',
      'no-undef': 'off',
      // The code matches control characters on purpose (header and input validation, fuzzing).
      'no-control-regex': 'off',
    },
  },
  {
    // Tests and benches read loosely typed JSON bodies (`const body: any = await res.json()`) and poke
    // at internals: `any` there is the shortest honest type, and typing every response would only
    // restate the API schemas the tests check.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Workflow code is replayed by Temporal inside a deterministic sandbox: its run-time imports are
    // @temporalio/workflow, other workflow files, and the modules of src/ written to be sandbox-safe
    // (the list below: keep each of them free of Node and I/O imports). Anything else (db, storage,
    // engines, config, logger, providers' HTTP, activities…) only as `import type`; activities are
    // reached through proxyActivities.
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: noIoImports.paths,
          patterns: [
            ...noIoImports.patterns,
            {
              regex: String.raw`^(\.\./)+src/(?!(${SANDBOX_SAFE_MODULES.join('|')})\.js$)`,
              allowTypeImports: true,
              message:
                'Workflow code may import at run time only the sandbox-safe modules of src/ ' +
                `(${SANDBOX_SAFE_MODULES.join(', ')}); use \`import type\` for the rest.`,
            },
            {
              regex: String.raw`^(\.\./)+activities/`,
              allowTypeImports: true,
              message: 'Workflows reach activities through proxyActivities: import their types only.',
            },
            noToolingImports,
          ],
        },
      ],
    },
  },
  {
    // Production code outside the workflows: no workflow file (the Temporal contract instead), no tooling.
    files: ['src/**/*.ts', 'activities/**/*.ts'],
    ignores: ['src/tooling/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noWorkflowImports, noToolingImports] }] },
  },
  {
    // The tooling may import production code, never a workflow file.
    files: ['src/tooling/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noWorkflowImports] }] },
  },
  {
    // The sandbox-safe modules the workflows import at run time: the same ban on Node and I/O imports
    // one level down, so the workflows' guarantee does not leak through them (this replaces the rule
    // above for them; they import no workflow either).
    files: [
      'src/shared.ts',
      'src/temporal/contract.ts',
      'src/providers/errors.ts',
      'src/webhooks/retryPolicy.ts',
      'src/webhooks/events.ts',
      'src/webhooks/attemptFailures.ts',
      'src/progress/percent.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: noIoImports.paths, patterns: [...noIoImports.patterns, noToolingImports] },
      ],
    },
  },
);
