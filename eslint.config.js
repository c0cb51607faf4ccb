import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { readdirSync } from 'node:fs';
import tseslint from 'typescript-eslint';

/**
 * The web app's import zones. app/ (pages, router, shell) composes features; a feature imports
 * lib/, components/ and itself, never another feature or app/; lib/ and components/ import
 * neither features nor app/. One config object per feature, so each may import only its own
 * folder. Relative paths may not climb out of a feature (use the `@/` alias).
 */
function webImportZones() {
  const src = 'apps/web/src';
  const features = readdirSync(new URL(`${src}/features`, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  const tests = ['**/*.test.ts', '**/*.test.tsx'];
  const appImport = {
    group: ['@/app', '@/app/**'],
    message: 'Only app/ composes pages: lib, components and features do not import it.',
  };
  return [
    ...features.flatMap((feature) => {
      const zone = (patterns) => ({
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              {
                group: ['@/features/*', `!@/features/${feature}`],
                message:
                  'Features do not import each other: compose them in a page under app/routes/.',
              },
              {
                group: ['../../*', '../../**'],
                message: 'Do not climb out of the feature: import lib/ and components/ via @/.',
              },
              ...patterns,
            ],
          },
        ],
      });
      const files = [`${src}/features/${feature}/**`];
      // A feature's tests may render it inside the app's real providers.
      return [
        { files, ignores: tests, rules: zone([appImport]) },
        { files: files.map((dir) => `${dir}/*.test.{ts,tsx}`), rules: zone([]) },
      ];
    }),
    {
      files: [`${src}/lib/**`, `${src}/components/**`],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              {
                group: ['@/features', '@/features/**', '../features', '../features/**'],
                message: 'lib/ and components/ are below the features: they do not import them.',
              },
              appImport,
              { group: ['../app', '../app/**'], message: appImport.message },
            ],
          },
        ],
      },
    },
  ];
}

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
      'e2e/.artifacts/**',
      '**/*.js',
      '**/*.mjs',
      '**/*.cjs',
      'vitest.config.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/only-throw-error': 'off',
    },
  },
  {
    // Tests read JSON bodies loosely; assertions check their shape.
    files: [
      '**/*.test.ts',
      '**/*.test.tsx',
      'apps/server/test/**/*.ts',
      'e2e/**/*.ts',
      'bench/**/*.ts',
    ],
    rules: {
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-syntax': [
        'error',
        {
          selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']",
          message: 'Never inject HTML.',
        },
      ],
    },
  },
  {
    // The service worker is typed with the worker's globals by its own tsconfig (the app's has
    // the page's; TypeScript cannot hold both in one program).
    files: ['apps/web/src/sw.ts'],
    languageOptions: {
      parserOptions: {
        projectService: false,
        project: './apps/web/tsconfig.sw.json',
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.serviceworker },
    },
  },
  // Server layers, bottom up: config and db (and errors, load-once) < media < modules (route,
  // service, repository per domain; routes use the http helpers) < app, main, cli, sample. A layer
  // imports only from below it, and a module reaches another module's data through that module's
  // service, never its repository.
  {
    files: [
      'apps/server/src/config.ts',
      'apps/server/src/errors.ts',
      'apps/server/src/load-once.ts',
      'apps/server/src/db/**/*.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\.?/)+(modules|media|http|cli|sample)(/|$)',
              message: 'config and db are the bottom layer: they import nothing above them.',
            },
            {
              regex: '^(\\.\\.?/)+(app|main)\\.js$',
              message: 'config and db are the bottom layer: they import nothing above them.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/config.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\./(db|modules|media|http|cli|sample)(/|$)|^\\./(app|main)\\.js$',
              message: 'config is the bottom layer: it imports nothing above it.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/media/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\.?/)+(modules|http|cli|sample)(/|$)|^(\\.\\.?/)+(app|main)\\.js$',
              message: 'media sits below the modules: it imports config, db and errors only.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/modules/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(modules/)?[^./][^/]*/[^/]+\\.repository(\\.js)?$',
              message: "A module uses another module's service, never its repository.",
            },
            {
              regex: '^(\\.\\.?/)+(cli|sample)(/|$)|^(\\.\\.?/)+(app|main)\\.js$',
              message: 'Modules sit below app, cli and sample: they do not import them.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/cli/**/*.ts', 'apps/server/src/sample/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '\\.repository(\\.js)?$',
              message: 'The CLI and the sample workspace write through services, not repositories.',
            },
          ],
        },
      ],
    },
  },
  ...webImportZones(),
);
