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
