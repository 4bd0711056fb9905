// The names of the language-model tools (package.json's languageModelTools).
export const TOOL_NAMES = {
  contract: 'cantonLens_lookUpContract',
  update: 'cantonLens_lookUpUpdate',
  visibility: 'cantonLens_explainVisibility',
  activeContracts: 'cantonLens_listActiveContracts',
} as const;

export const COMMAND_FAILURE_TOOL = 'cantonLens_whyCommandFailed';
