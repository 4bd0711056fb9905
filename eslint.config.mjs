// ESLint: typescript-eslint's type-checked recommended rules over src/ and test/ (the page scripts
// too: TypeScript in src/webview/, built into media/); Prettier owns the formatting
// (eslint-config-prettier switches off the rules it would fight with; .prettierrc.json leaves the
// html`` templates alone, since their whitespace is the page's). `npm run lint`; run by `npm test`.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/**
 * The folders of src/, lowest first: a module imports its own floor and those below, never one
 * above (the same floor may; test/unit/layers.test.ts also checks that no import circles).
 */
export const LAYERS = [
  ['l10n'],
  ['ids'],
  ['ledger'],
  // The messages and rows between the host and the pages: what both sides read.
  ['protocol'],
  ['auth'],
  ['nodes'],
  ['lookups', 'browse', 'execute', 'daml'],
  // The pages' scripts (built into media/): below every host floor, so a page cannot import one.
  ['webview'],
  ['debug'],
  ['services'],
  ['agentTools', 'providers', 'views', 'panels'],
  ['commands'],
  // The entries of the lazily loaded bundles (src/extensionContext.ts loads them).
  ['bundles'],
];

/**
 * Below the pages' floor, what a page may still import: the protocol, ids, l10n and the page-side
 * table modules of browse. The host's clients, rights, lookups and commands stay out of the pages.
 */
export const PAGE_REFUSES = ['ledger', 'auth', 'nodes', 'lookups', 'execute', 'daml'];

const layerRules = LAYERS.flatMap((floor, i) => {
  const above = LAYERS.slice(i + 1).flat();
  return floor.map((folder) => ({
    files: [`src/${folder}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(\\.\\./)+(${above.join('|')})(/|$)`,
              message: `src/${folder}/ is below ${above.join(', ')} in the layer order (eslint.config.mjs LAYERS): move the shared piece down instead.`,
            },
            ...(folder === 'webview'
              ? [
                  {
                    regex: `^(\\.\\./)+(${PAGE_REFUSES.join('|')})(/|$)`,
                    message:
                      'A page imports only src/protocol/ (the messages and rows), ids, l10n and the page-side modules of browse: the host code stays in the host.',
                  },
                ]
              : []),
            // The product knows the fake ledger only as the demo ledger's types (its code is a lazy bundle).
            { regex: 'fake-ledger', allowTypeImports: true, message: 'The product does not import the fake ledger: the demo ledger is a lazy bundle.' },
          ],
        },
      ],
    },
  }));
});

export default tseslint.config(
  { ignores: ['out/', 'dist/', 'node_modules/', '.cache/', 'media/*.js', 'spec/', '**/*.vsix'] },
  {
    files: ['src/**/*.ts', 'test/**/*.ts', 'fake-ledger/src/**/*.ts', 'fake-ledger/test/**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // A leading underscore marks a name left unused on purpose, as tsc's noUnused* checks allow.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['test/**/*.ts', 'fake-ledger/test/**/*.ts'],
    rules: {
      // Fakes implement the async interfaces of the code under test and often answer at once.
      '@typescript-eslint/require-await': 'off',
      // Tests read JSON (answers, the manifest, stored state) and assert its shape: a wrong shape
      // fails the assertion, which is what a typed read would otherwise guard.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // Lazy loading: require() at first use keeps heavy modules (undici, the fake node, the
    // transaction decoder, node:crypto) out of activation; a static import would load them at once.
    files: [
      'src/services/lazyBundles.ts',
      'src/panels/randomIds.ts',
      'src/services/codeCache.ts',
      'src/execute/*.ts',
      'fake-ledger/src/interactiveSubmissions.ts',
      'fake-ledger/src/preparedTransactions.ts',
      'fake-ledger/src/cantonHashes.ts',
      'test/bench/activationProbe.ts',
    ],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // A built bundle loaded as the extension loads it, and a package whose typings are ESM-only
    // but whose code is CommonJS (imported for types with resolution-mode).
    files: ['test/package/vsix.test.ts', 'test/support/preparedTransactions.ts'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['*.mjs'],
    extends: [js.configs.recommended],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  ...layerRules,
  {
    // The fake ledger is a package of its own: it never reaches into the product it checks.
    files: ['fake-ledger/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(src|test)(/|$)',
              message: 'The fake ledger does not import the product or its tests: it is the model they are checked against.',
            },
          ],
        },
      ],
    },
  },
  {
    // The fake ledger's own tests check it alone: they may use the shared test support (the
    // spec's bodies and checks), never the product.
    files: ['fake-ledger/test/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./\\.\\./src/',
              message: "The fake ledger's tests check it alone; a test that checks the product against it belongs in test/server/.",
            },
          ],
        },
      ],
    },
  },
  prettier,
);
