/** A mistake in the operator's input: reported as one line, never a stack trace. */
export class OperatorError extends Error {
  override name = 'OperatorError';
}
