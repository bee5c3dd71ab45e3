export { type CorpusRow, problemWithRow, rowLimits } from './corpusRow.js';
export { CorpusError, CorpusValidationError } from './errors.js';
export { normaliseForIdentity, quoteId } from './quoteId.js';
export {
  appendCorpus,
  type CorpusLoadReport,
  type CorpusMeta,
  type CorpusRows,
  type CorpusStateRow,
  type CorpusSwap,
  type LoadOptions,
  type LoadPhase,
  type LoadProgress,
  replaceCorpus,
} from './loadCorpus.js';
export { ensureDefaultCorpus, generatedSource } from './defaultCorpus.js';
export { defaultCorpusSeed, defaultCorpusSize } from './defaultCorpusSettings.js';
export { Random, seededRandom } from './generator/random.js';
export { generateCorpus, type GenerateOptions } from './generator/generateCorpus.js';
export { corpusStats, type CorpusStats } from './corpusStats.js';
export { type CorpusDefaults, type LoadRecorder, registerCorpusCommands } from './cli/corpusCommands.js';
