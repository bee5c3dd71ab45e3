export { apiReferenceRouter } from './apiReferenceRouter.js';
export { createDocsFront, type DocsFrontOptions, type RunningDocsFront } from './docsFront.js';
