import { OperatorError } from '../operator/operatorError.js';

/** A holder's action refused by a bound of decision 0045: the page answers 429 with Retry-After. */
export class TooManyActions extends OperatorError {
  override name = 'TooManyActions';

  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message, 'refused');
  }
}
