// @ts-check
/**
 * `npm run lint` (inside `npm test`): the recommended sets of ESLint, typescript-eslint,
 * React Hooks (islands) and jsx-a11y (islands), tuned so that what is left is worth fixing.
 * Formatting is Prettier's job (docs/decisions/0010-lint-and-format.md); none of these rules
 * is about layout.
 *
 * Not type-aware: typescript-eslint's type-checked set took 27 s here on 2 cores against 6 s
 * for this one, and `npm run check` already runs tsc. `.astro` files are left to `astro check`.
 */
import { defineConfig } from 'eslint/config';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import globals from 'globals';

export default defineConfig(
  { ignores: ['dist/', 'dist-*/', '**/node_modules/', '.astro/', '.data/', '.partykit/', 'test-results/', 'playwright-report/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: globals.node },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `const { omitted: _omitted, ...rest } = x` is how the code drops a field; `_` marks "unused on purpose".
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // Every control character in a pattern here is there on purpose: the sanitisers for mail headers,
      // iCalendar text and free-text fields strip them.
      'no-control-regex': 'off',
      // `case A:` / a comment / `case B:` is a grouped label, not a forgotten break.
      'no-fallthrough': ['error', { allowEmptyCase: true }],
    },
  },
  {
    // A migration must not depend on today's table types: Kysely's guide types it (and the migrator) as Kysely<any>.
    files: ['db/migrations/**', 'db/migrate.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Tests poke at untyped JSON and at the page's window from Playwright.
    files: ['tests/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['site/**/*.tsx'],
    extends: [reactHooks.configs.flat.recommended, jsxA11y.flatConfigs.recommended],
    languageOptions: { globals: globals.browser },
    rules: {
      // Islands are rendered on the server first; what only the browser knows (the query string,
      // localStorage, a fetch) is read after mount and set from an effect on purpose. The rule is
      // written for apps built with the React Compiler, which this one is not.
      'react-hooks/set-state-in-effect': 'off',
      // A scrollable region (an admin table) must be reachable by keyboard: axe's scrollable-region-focusable.
      'jsx-a11y/no-noninteractive-tabindex': ['error', { tags: [], roles: ['tabpanel', 'region'], allowExpressionValues: true }],
    },
  },
);
