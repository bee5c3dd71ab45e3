export { mockContractPath, prismBinPath, prismMockArgs } from './prism.js';
export { type RunningMock, type StartMockOptions, startMock } from './startMock.js';
