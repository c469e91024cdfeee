// ESLint for the app: typescript-eslint's strict, type-checked rules for the TypeScript that
// tsconfig.json covers (src/, test/, vitest.config.ts), the Rules of Hooks for React code, and
// ESLint's recommended rules for the plain ES modules run by Node (build.mjs, e2e/, bench/,
// scripts/), which no tsconfig covers and so get no type-checked rules.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'test-results/', 'e2e-artifacts/'] },
  js.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    extends: [tseslint.configs.strictTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Counts, line numbers and sizes go into messages and class names all over the app; a
      // number prints the same in every locale, unlike the objects the rule guards against.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      // `_` names a value that is deliberately unused (`for (const _ of s)` counts characters),
      // as tsc's noUnusedLocals allows.
      '@typescript-eslint/no-unused-vars': ['error', { varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'test/**/*.{ts,tsx}'],
    // The classic hook rules only: the app is not compiled with React Compiler, so the
    // compiler's own rules (refs, set-state-in-effect, immutability, ...) that the plugin's
    // recommended presets add would police code shapes nothing here depends on.
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
    languageOptions: { globals: globals.browser },
  },
  {
    files: ['test/**/*.{ts,tsx}', 'src/extensions/*/test/**/*.{ts,tsx}'],
    rules: {
      // Tests read untyped JSON fixtures and assert on them; a wrong shape fails the test anyway.
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // Mocks of async APIs (fetch, clipboard) keep the API's async shape, and
      // `act(async () => ...)` is how a test lets React settle the promises its callback resolves.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: {
      // e2e/ and bench/ pass functions to page.evaluate, which run in the browser.
      globals: { ...globals.node, ...globals.browser },
    },
  },
);
