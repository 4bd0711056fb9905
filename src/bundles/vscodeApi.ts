// The `vscode` module as one namespace for a whole bundle: esbuild.mjs resolves every `vscode` import
// of our bundles to this module. Without it, esbuild gives each of the ~60 importing modules its own
// copy of the API's namespace (a getter per API name, made while the bundle loads, at activation).
export * from 'vscode';
