// Lint: the engine (src/) imports no React or Ink; the view imports engine types only.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.lindwyrm-bench/**', '.e2e-dist-*/**', '.bench-dist-*/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Type information for the rules that need it (a promise nobody awaits or catches).
    files: ['**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // A promise left floating loses its failure: await it, return it, .catch it, or say `void` on purpose.
      '@typescript-eslint/no-floating-promises': 'error',
    },
  },
  {
    // Files small enough to read in one sitting: 400 lines is the hard limit (aim under 300).
    files: ['src/**/*.ts', 'components/**/*.{ts,tsx}', 'hooks/**/*.{ts,tsx}'],
    rules: {
      'max-lines': ['error', { max: 400 }],
      // A failure let go must say so: ignoreError('what', log) reports it under -v; absent,
      // noEntries and orderOnly (src/diagnostics/ignore-error.ts) name the expected ones.
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.property.name='catch'] > ArrowFunctionExpression[params.length=0]:matches([body.type='Identifier'][body.name='undefined'], [body.type='ArrayExpression'], [body.type='TSAsExpression'], [body.type='Literal'][body.raw=/^(''|\"\"|null)$/])",
          message: 'A swallowed error: use ignoreError(...) (logged under -v) or a named handler that says why (absent, noEntries, orderOnly).',
        },
      ],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/cli.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['react', 'react/*', 'ink', 'ink-*'], message: 'The engine (src/) must run headless: no React or Ink.' },
            { group: ['**/components/**', '**/hooks/**'], message: 'The engine must not import the view.' },
          ],
        },
      ],
    },
  },
  {
    files: ['components/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/src/**'],
              allowTypeImports: true,
              message: 'Components import engine types only; behaviour goes through hooks/.',
            },
          ],
        },
      ],
    },
  },
);
