/** The default corpus: its size (the service promises more than 150,000 quotes) and its seed. */
export const defaultCorpusSize = 152_000;
export const defaultCorpusSeed = 20261123;
