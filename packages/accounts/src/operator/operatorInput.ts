import { checkTextField, refusedCharacterIn, withRefusedShown } from '@quotes/text-rules';
import validator from 'validator';
import { canonicalOrigin, maxAllowedOrigins } from '../domain/allowedOrigins.js';
import { OperatorError } from './operatorError.js';

/**
 * What the operator types, checked before it is stored or mailed by the text-field rule every
 * surface shares (@quotes/text-rules): nothing that could later forge a line of a table, move
 * the cursor of a terminal, reorder what is shown or add a header to a message.
 */

/** One line per message, with what was refused shown escaped. */
export function quoted(text: string): string {
  return withRefusedShown(JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}...` : text));
}

export function requireText(value: string, name: string, max: number): string {
  const checked = checkTextField(value, { maxCharacters: max });
  if ('text' in checked) return checked.text;
  throw new OperatorError(
    checked.refused === 'length' ? `${name} ${checked.message}` : `${name} ${quoted(value.trim())} ${checked.message}`,
  );
}

/** The longest client (organisation or person) name: what every list and mail shows. */
export const clientNameMaxCharacters = 200;

/** Client (organisation or person) names: as shown in every list and mail. */
export function requireClientName(value: string): string {
  return requireText(value, 'client', clientNameMaxCharacters);
}

/**
 * An address mail can be sent to: one `@`, a domain with a top-level part, no display name, no
 * IP literal, no quoted local part; at most 254 characters (RFC 5321's path limit).
 */
export function requireEmail(value: string, name = 'email'): string {
  const text = value.trim();
  if (text.length > 254) throw new OperatorError(`${name} must be at most 254 characters`);
  if (refusedCharacterIn(text) !== undefined || text.split('@').length !== 2 || text.includes('"'))
    throw new OperatorError(`${name} ${quoted(text)} is not an e-mail address`);
  if (
    !validator.isEmail(text, {
      allow_display_name: false,
      require_tld: true,
      allow_ip_domain: false,
      allow_utf8_local_part: false,
    })
  )
    throw new OperatorError(`${name} ${quoted(text)} is not an e-mail address`);
  return text;
}

/** Free text kept with a key (a revocation's reason) or sent as a subject. */
export function optionalText(value: string | null | undefined, name: string, max: number): string | null {
  if (value == null || value.trim() === '') return null;
  return requireText(value, name, max);
}

/** A key's browser origins, canonical and without duplicates (see domain/allowedOrigins.ts). */
export function requireOrigins(values: readonly string[]): string[] {
  const origins: string[] = [];
  for (const value of values) {
    const canonical = canonicalOrigin(value);
    if ('error' in canonical) throw new OperatorError(canonical.error);
    if (!origins.includes(canonical.origin)) origins.push(canonical.origin);
  }
  if (origins.length > maxAllowedOrigins)
    throw new OperatorError(`a key allows at most ${maxAllowedOrigins} origins, got ${origins.length}`);
  return origins;
}
