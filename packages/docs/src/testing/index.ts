/**
 * Helpers for tests that open the reference page in a real browser. They import
 * playwright-core, which is a devDependency here: only test code may import this entry.
 */
export { browserSkipReason, launchChromium } from './chromium.js';
export { type LiveResponse, ReferencePage } from './referencePage.js';
