/**
 * The run cannot happen as asked (exit 2): a bad flag, a target that never answered, keys that
 * are not what they are given as. Not a failed check: the message says what to change.
 */
export class RunNotPossible extends Error {
  override readonly name: string = 'RunNotPossible';
}
