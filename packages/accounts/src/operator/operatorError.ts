/**
 * What kind of refusal an operator action met, for each surface to answer in its own terms (the
 * console's status and page, the CLI's exit code):
 * - `invalid`: the input breaks a rule (a field's format, range or combination);
 * - `not-found`: what the input names does not exist;
 * - `conflict`: the thing is not in a state that allows the action (already revoked, changed meanwhile);
 * - `refused`: allowed in form and state, but a policy says no (a second trial);
 * - `failed`: the action could not be completed (its audit entry could not be written); nothing changed.
 */
export type OperatorErrorCode = 'invalid' | 'not-found' | 'conflict' | 'refused' | 'failed';

/** A refusal of the operator's action: reported as one line, never a stack trace. */
export class OperatorError extends Error {
  override name = 'OperatorError';

  constructor(
    message: string,
    readonly code: OperatorErrorCode = 'invalid',
  ) {
    super(message);
  }
}
