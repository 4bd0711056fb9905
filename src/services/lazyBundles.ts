// Loads the heavy parts (the undici HTTP layer, the demo ledger, the panels, the Daml index…) from
// their own bundles on first use, so activation never pays for them. `bundleDir` is the extension's `dist` folder.
import * as path from 'node:path';
import type { HttpTransport, TransportOptions } from '../ledger/httpTransport';
import type * as UndiciTransportModule from '../ledger/undiciTransport';
import type * as FakeNodeModule from '../../fake-ledger/src/demo';
import type * as TxReviewModule from '../execute/preparedTransactionReview';
import type * as OidcModule from '../auth/oidcProtocol';
import type * as CommandFailureModule from '../execute/commandFailure';

export function lazyHttpTransport(bundleDir: string, options: TransportOptions = {}): () => Promise<HttpTransport> {
  // async, so that a bundle that fails to load rejects the promise instead of throwing.
  // eslint-disable-next-line @typescript-eslint/require-await
  return async () => {
    const mod = require(path.join(bundleDir, 'http.js')) as typeof UndiciTransportModule;
    return mod.createUndiciTransport(options);
  };
}

export function loadFakeNodeBundle(bundleDir: string): typeof FakeNodeModule {
  return require(path.join(bundleDir, 'fakeNode.js')) as typeof FakeNodeModule;
}

/** The prepared-transaction decoder (core-tx-visualizer, protobuf-ts): loaded by the execute command only. */
export function loadTxReviewBundle(bundleDir: string): typeof TxReviewModule {
  return require(path.join(bundleDir, 'txReview.js')) as typeof TxReviewModule;
}

/** Sign-in through an OpenID provider (oauth4webapi): loaded on the first sign-in or renewal. */
export function loadOidcBundle(bundleDir: string): typeof OidcModule {
  return require(path.join(bundleDir, 'oidc.js')) as typeof OidcModule;
}

/** The inner loop (commands requests, their review, the completions): typed by its caller, a layer above. */
export function loadCommandsLoopBundle(bundleDir: string): unknown {
  return require(path.join(bundleDir, 'commandsLoop.js'));
}

/** The review panel of execute requests (with its HTML): typed by its caller, a layer above. */
export function loadExecuteReviewBundle(bundleDir: string): unknown {
  return require(path.join(bundleDir, 'executeReview.js'));
}

/** The external signing commands (prepare, sign, allocate): typed by their caller, a layer above. */
export function loadExternalSigningBundle(bundleDir: string): unknown {
  return require(path.join(bundleDir, 'externalSigning.js'));
}

/** Why a command failed, with every code's meaning and source: loaded by the first question to the language-model tool. */
export function loadCommandFailureBundle(bundleDir: string): typeof CommandFailureModule {
  return require(path.join(bundleDir, 'commandFailure.js')) as typeof CommandFailureModule;
}

/** The `canton` debug type (the adapter on @vscode/debugadapter, the configurations): typed by its caller. */
export function loadDebugAdapterBundle(bundleDir: string): unknown {
  return require(path.join(bundleDir, 'debugAdapter.js'));
}

/** The questions across time (compare, what changed, payload filters): typed by its caller, a layer above. */
export function loadAcrossTimeBundle(bundleDir: string): unknown {
  return require(path.join(bundleDir, 'acrossTime.js'));
}

/** The lookup service and the id hover: typed by its caller, a layer above. */
export function loadLookupsBundle(bundleDir: string): unknown {
  return require(path.join(bundleDir, 'lookups.js'));
}

/** The lookup panels with their HTML, and the commands that open them: typed by its caller. */
export function loadLookupPanelsBundle(bundleDir: string): unknown {
  return require(path.join(bundleDir, 'lookupPanels.js'));
}

/** The Active Contracts tables, the live tails and the tree's count: typed by its caller. */
export function loadBrowseBundle(bundleDir: string): unknown {
  return require(path.join(bundleDir, 'browse.js'));
}

/** The workspace's Daml index, its lenses, completions and commands, the packages' read: typed by its caller. */
export function loadDamlBundle(bundleDir: string): unknown {
  return require(path.join(bundleDir, 'daml.js'));
}

/** The language-model tools: typed by its caller, a layer above. */
export function loadAgentToolsBundle(bundleDir: string): unknown {
  return require(path.join(bundleDir, 'agentTools.js'));
}

/** The execute reviews' owner, the development keys and the execute commands: typed by its caller. */
export function loadExecuteBundle(bundleDir: string): unknown {
  return require(path.join(bundleDir, 'execute.js'));
}
