import type { TextFieldRule } from '@quotes/text-rules';

/** A request for a key as the contract's KeyRequest schema has it, trimmed and checked. */
export interface KeyRequestInput {
  readonly email: string;
  readonly name: string;
  readonly application: string;
  readonly plan: string;
  readonly use: string;
  /** The hidden field only robots fill. */
  readonly honeypot: boolean;
}

/**
 * The free-text fields of a request and what each accepts: the text-field rule the operator's
 * input shares, so nothing the form takes is refused when the request is confirmed or approved.
 * The lengths are the contract's maxLength.
 */
export const keyRequestTextFields = {
  name: { maxCharacters: 200 },
  application: { maxCharacters: 200 },
  use: { maxCharacters: 1000, lines: true },
} as const satisfies Record<string, TextFieldRule>;
