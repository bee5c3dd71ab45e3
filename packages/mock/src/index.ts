export { createDocsFront, type DocsFrontOptions, type RunningDocsFront } from './docsFront.js';
export { mockContractPath, prismBinPath, prismMockArgs } from './prism.js';
export { type RunningMock, type StartMockOptions, startMock } from './startMock.js';
