// The usage history's recorder alone, for the benchmarks' measurement of its memory per key.
export { UsageHistory } from './data/history/usageHistory.js';
