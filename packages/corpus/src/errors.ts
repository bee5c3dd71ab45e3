/**
 * Every corpus failure an operator can act on. The message is one line naming the problem; the
 * CLI prints it as is, so it must never need a stack trace to be understood.
 */
export class CorpusError extends Error {
  override name = 'CorpusError';
}

/** A row that does not fit the taxonomy or the table's limits. */
export class CorpusValidationError extends CorpusError {
  override name = 'CorpusValidationError';
}
