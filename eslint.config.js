import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

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
    files: ['apps/web/src/features/*/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../../*/**', '@/features/*'],
              message: 'Features do not import each other; compose them in app/ or pages.',
            },
          ],
        },
      ],
    },
  },
  // Server layers, bottom up: config and db (and errors) < media < modules (route, service,
  // repository per domain; routes use the http helpers) < app, main, cli, sample. A layer imports
  // only from below it, and a module reaches another module's data through that module's
  // service, never its repository.
  {
    files: ['apps/server/src/config.ts', 'apps/server/src/db/**/*.ts'],
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
);
