// The external signing commands' ids: shared by their registration (loaded at activation) and
// their handlers (a bundle of their own), so that neither loads the other.
export const EXTERNAL_SIGNING_COMMANDS = [
  'cantonLens.allocateExternalParty',
  'cantonLens.newPrepareRequest',
  'cantonLens.prepareTransaction',
  'cantonLens.generateSigningKey',
  'cantonLens.signPreparedTransaction',
] as const;

export type ExternalSigningCommand = (typeof EXTERNAL_SIGNING_COMMANDS)[number];
