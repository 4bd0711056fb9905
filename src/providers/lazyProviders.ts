// Providers registered at activation whose work is in a lazily loaded bundle: the first call loads
// the real provider, and each call is handed on to it. A code lens provider's change event is
// passed on from the moment the real one is loaded (before that, it has shown nothing to change).
import * as vscode from 'vscode';

export function lazyCodeLensProvider(load: () => vscode.CodeLensProvider): vscode.CodeLensProvider & vscode.Disposable {
  const changed = new vscode.EventEmitter<void>();
  let passOn: vscode.Disposable | undefined;
  const real = () => {
    const provider = load();
    passOn ??= provider.onDidChangeCodeLenses?.(() => changed.fire()) ?? new vscode.Disposable(() => undefined);
    return provider;
  };
  return {
    onDidChangeCodeLenses: changed.event,
    provideCodeLenses: (document, token) => real().provideCodeLenses(document, token),
    resolveCodeLens: (lens, token) => {
      const provider = real();
      return provider.resolveCodeLens ? provider.resolveCodeLens(lens, token) : lens;
    },
    dispose: () => {
      passOn?.dispose();
      changed.dispose();
    },
  };
}

export function lazyHoverProvider(load: () => vscode.HoverProvider): vscode.HoverProvider {
  return { provideHover: (document, position, token) => load().provideHover(document, position, token) };
}

export function lazyCompletionProvider(load: () => vscode.CompletionItemProvider): vscode.CompletionItemProvider {
  return {
    provideCompletionItems: (document, position, token, context) => load().provideCompletionItems(document, position, token, context),
    resolveCompletionItem: (item, token) => {
      const provider = load();
      return provider.resolveCompletionItem ? provider.resolveCompletionItem(item, token) : item;
    },
  };
}
