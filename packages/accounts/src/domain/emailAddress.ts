import { refusedCharacterIn } from '@quotes/text-rules';
// Its two checks alone: the whole library is 113 modules, a tenth of a server's start.
import isEmail from 'validator/lib/isEmail.js';
import isIP from 'validator/lib/isIP.js';

/** RFC 5321's path limit. */
export const emailMaxCharacters = 254;

/**
 * Why a text is not an address mail can be sent to, in words a person reads beside the field
 * ("has no domain ending such as .com"), or undefined when it is one. The rule the operator's
 * tools and the form share: one @, a dotted domain with a top-level part, no display name, no
 * IP literal, no quoted local part, at most 254 characters.
 */
export function emailAddressProblem(value: string): string | undefined {
  const text = value.trim();
  if (text === '') return 'is empty';
  if ([...text].length > emailMaxCharacters) return `is longer than ${emailMaxCharacters} characters`;
  if (/\s/.test(text)) return 'contains a space';
  if (refusedCharacterIn(text) !== undefined || text.includes('"'))
    return 'contains a character an e-mail address cannot hold';
  const parts = text.split('@');
  if (parts.length === 1) return 'has no @ between the name and the domain';
  if (parts.length > 2) return 'has more than one @';
  const [local, domain] = parts as [string, string];
  if (local === '') return 'has nothing before the @';
  if (domain === '') return 'has no domain after the @';
  if (/^\[.*\]$/.test(domain) || isIP.default(domain)) return 'has a numeric address where its domain should be';
  if (!domain.includes('.') || domain.endsWith('.')) return 'has no domain ending such as .com';
  if (
    !isEmail.default(text, {
      allow_display_name: false,
      require_tld: true,
      allow_ip_domain: false,
      allow_utf8_local_part: false,
    })
  )
    return 'is not an address mail can be sent to';
  return undefined;
}
