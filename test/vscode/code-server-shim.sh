#!/bin/sh
# The "VS Code executable" given to @vscode/test-electron's runTests: see codeServerShim.ts.
exec node "$(dirname "$0")/../../out/test/vscode/codeServerShim.js" "$@"
