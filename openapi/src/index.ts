export {
  contractPath,
  loadContract,
  cloneContract,
  responseExample,
  type ContractDocument,
} from './contractDocument.js';
export { taxonomy, lengthOfText, problemTypePrefix, type Taxonomy } from './taxonomy.js';
