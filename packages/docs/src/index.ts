export { apiReferenceRouter } from './apiReferenceRouter.js';
