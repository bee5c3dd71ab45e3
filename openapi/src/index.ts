export {
  contractPath,
  loadContract,
  cloneContract,
  responseExample,
  type ContractDocument,
} from './contractDocument.js';
export {
  type ContractRules,
  type FilterRule,
  type LengthBand,
  lengthOfText,
  type PlanPrice,
  type PlanRules,
  readContractRules,
  rules,
} from './contractRules.js';
export { describedContract, planTables } from './planTable.js';
export { allowanceSentence, priceSentence } from './planWording.js';
export { taxonomy, problemTypePrefix, type Taxonomy } from './taxonomy.js';
// The contract's schemas and each operation's request and response shapes, generated from
// quotes.yaml by @hey-api/openapi-ts at build time (src/generated, never edited by hand).
export type * from './generated/types.gen.js';
