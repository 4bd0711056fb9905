// Run in a fresh process by the benchmark: requires a bundle with a stub `vscode` and calls
// activate(), then prints the time taken. A stub, not VS Code: it measures our module's cost.
import Module from 'node:module';

type Loader = (request: string, ...rest: unknown[]) => unknown;

/** The `vscode` module: its API names, each a stub. */
function moduleStub(): unknown {
  const names = [
    'window',
    'workspace',
    'commands',
    'languages',
    'env',
    'Uri',
    'EventEmitter',
    'TreeItem',
    'ThemeIcon',
    'ThemeColor',
    'MarkdownString',
    'DocumentLink',
    'Range',
    'Position',
    'Hover',
    'Diagnostic',
    'DiagnosticSeverity',
    'ProgressLocation',
    'ViewColumn',
    'StatusBarAlignment',
    'TreeItemCollapsibleState',
    'ConfigurationTarget',
    'InputBoxValidationSeverity',
    'WorkspaceEdit',
    'CodeLens',
    'CancellationTokenSource',
    'RelativePattern',
    'LanguageModelTextPart',
    'LanguageModelToolResult',
    'lm',
    'extensions',
    'l10n',
    'authentication',
    'debug',
    'Disposable',
    'TabInputWebview',
    'CodeAction',
    'CodeActionKind',
  ];
  return Object.fromEntries(names.map((n) => [n, stub()]));
}

function stub(): unknown {
  const fn = function () {
    /* stub */
  };
  return new Proxy(fn, {
    // Settings read as unset; everything else is another stub.
    get: (_t, key) => (key === 'then' ? undefined : key === Symbol.toPrimitive ? () => '' : key === 'inspect' || key === 'get' ? () => undefined : stub()),
    apply: () => stub(),
    construct: () => stub() as object,
    // Assignments (item.name = …) are accepted and forgotten.
    set: () => true,
  });
}

const moduleWithLoad = Module as unknown as { _load: Loader };
const original = moduleWithLoad._load;
const vscodeStub = moduleStub();
moduleWithLoad._load = function (request: string, ...rest: unknown[]) {
  return request === 'vscode' ? vscodeStub : original.call(this, request, ...rest);
};

// Node's own modules the bundle requires are loaded before the clock starts: the extension host
// has loaded them long before any extension activates, so their first load (≈100 ms in a fresh
// process: http pulls in net and tls) is not the extension's cost.
for (const builtin of ['node:path', 'node:fs', 'node:http', 'node:crypto', 'node:zlib']) require(builtin);

const file = process.argv[2];
// The extension's global storage (where the main bundle's code cache is kept), as a user's profile
// has one; without it the entry compiles the main bundle with no cache.
const storage = process.argv[3];
const loadedBefore = Object.keys(require.cache).length;
const cpu0 = process.cpuUsage();
const t0 = process.hrtime.bigint();
const ext = require(file) as { activate?: (c: unknown) => unknown };
const t1 = process.hrtime.bigint();
let activateError: string | undefined;
try {
  ext.activate?.({
    subscriptions: {
      push() {
        /* */
      },
    },
    extensionUri: stub(),
    extension: { packageJSON: { version: '0.0.0' } },
    globalStorageUri: storage ? { scheme: 'file', fsPath: storage } : stub(),
    secrets: stub(),
    globalState: stub(),
  });
} catch (e) {
  activateError = (e as Error).message;
}
const t2 = process.hrtime.bigint();
// CPU time (this process, all threads) says what the wall clock does not on a busy machine.
const cpu = process.cpuUsage(cpu0);
const modules = Object.keys(require.cache)
  .slice(loadedBefore)
  .map((m) => m.replace(/.*node_modules\//, ''));
process.stdout.write(
  JSON.stringify({
    requireMs: Number(t1 - t0) / 1e6,
    activateMs: Number(t2 - t1) / 1e6,
    cpuMs: (cpu.user + cpu.system) / 1000,
    activateError,
    modules,
    undiciLoaded: modules.some((m) => m.includes('http.js') || m.startsWith('undici')),
  }),
);
