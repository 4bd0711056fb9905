// ESLint: typescript-eslint's type-checked recommended rules over src/ and test/, the plain
// recommended rules over the hand-written page scripts in media/; Prettier owns the formatting
// (eslint-config-prettier switches off the rules it would fight with). `npm run lint`; run by `npm test`.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

const browser = Object.fromEntries(
  [
    'window',
    'document',
    'acquireVsCodeApi',
    'requestAnimationFrame',
    'cancelAnimationFrame',
    'setTimeout',
    'clearTimeout',
    'performance',
    'ResizeObserver',
    'console',
    'Element',
    'HTMLElement',
    'Node',
    'Intl',
  ].map((g) => [g, 'readonly']),
);

export default tseslint.config(
  { ignores: ['out/', 'dist/', 'node_modules/', '.cache/', 'media/panel.js', 'spec/', '**/*.vsix'] },
  {
    files: ['src/**/*.ts', 'test/**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  },
  {
    // Lazy loading: require() at first use keeps heavy modules (undici, the fake node, the
    // transaction decoder, node:crypto) out of activation; a static import would load them at once.
    files: ['src/ledger/lazyBundles.ts', 'src/panels/randomIds.ts', 'src/execute/*.ts', 'src/fakeNode/interactiveSubmissions.ts', 'test/bench/activationProbe.ts'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['media/**/*.js'],
    extends: [js.configs.recommended],
    languageOptions: { sourceType: 'script', globals: browser },
  },
  {
    files: ['*.mjs'],
    extends: [js.configs.recommended],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  prettier,
);
