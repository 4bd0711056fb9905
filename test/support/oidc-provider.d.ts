// oidc-provider ships no types; the test provider uses the little it needs through its own interface.
declare module 'oidc-provider';
