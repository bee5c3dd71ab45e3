/**
 * Helpers for tests that open the reference page in a real browser, and for tests that serve
 * something over real HTTP. They import playwright-core, which is a devDependency here: only
 * test code may import this entry.
 */
export { browserSkipReason, launchChromium } from './chromium.js';
export { type Listening, listen } from './listen.js';
export { type OpenedReferencePage, offlineContext, openReferencePage } from './offlineBrowser.js';
export { contractOperationLabels, type LiveResponse, ReferencePage } from './referencePage.js';
export {
  operationIds,
  overlappingTextInAuthentication,
  overlappingTextInTestRequest,
  prefilledKeyField,
  readabilityProblems,
  readingViewports,
  unreachableResponseTabs,
  wordsBrokenInTables,
} from './readability.js';
