/** The few English inflections the templates need, for verb phrases that start with a verb. */

const thirdPersonIrregular: Record<string, string> = { be: 'is', have: 'has', do: 'does', go: 'goes' };
const gerundIrregular: Record<string, string> = {
  be: 'being',
  see: 'seeing',
  lie: 'lying',
  die: 'dying',
  tie: 'tying',
  flee: 'fleeing',
  agree: 'agreeing',
  free: 'freeing',
};
// Two-syllable verbs stressed on the last syllable double their final consonant.
const doubledFinal = new Set([
  'forget',
  'begin',
  'admit',
  'commit',
  'regret',
  'permit',
  'submit',
  'occur',
  'prefer',
  'refer',
  'omit',
  'upset',
  'befit',
  'outrun',
  'remit',
]);
const vowels = /[aeiou]/;

function splitFirstWord(phrase: string): [string, string] {
  const space = phrase.indexOf(' ');
  return space === -1 ? [phrase, ''] : [phrase.slice(0, space), phrase.slice(space)];
}

/** "carry the dead lightly" -> "carries the dead lightly". */
export function thirdPerson(phrase: string): string {
  const [verb, rest] = splitFirstWord(phrase);
  const irregular = thirdPersonIrregular[verb];
  if (irregular) return irregular + rest;
  if (/[^aeiou]y$/.test(verb)) return `${verb.slice(0, -1)}ies${rest}`;
  if (/(s|sh|ch|x|z|o)$/.test(verb)) return `${verb}es${rest}`;
  return `${verb}s${rest}`;
}

function isShortClosedSyllable(verb: string): boolean {
  const groups = verb.match(/[aeiou]+/g) ?? [];
  return groups.length === 1 && /[^aeiou][aeiou][^aeiouwxy]$/.test(verb);
}

/** "let go of the past" -> "letting go of the past". */
export function gerund(phrase: string): string {
  const [verb, rest] = splitFirstWord(phrase);
  const irregular = gerundIrregular[verb];
  if (irregular) return irregular + rest;
  if (verb.endsWith('ie')) return `${verb.slice(0, -2)}ying${rest}`;
  if (verb.endsWith('e') && !/(ee|ye|oe)$/.test(verb) && verb.length > 2) return `${verb.slice(0, -1)}ing${rest}`;
  if (doubledFinal.has(verb) || isShortClosedSyllable(verb)) return `${verb}${verb.at(-1)}ing${rest}`;
  if (!vowels.test(verb)) return `${verb}ing${rest}`;
  return `${verb}ing${rest}`;
}

/**
 * Upper-cases the first letter of the sentence and of any sentence that starts inside it
 * ("My advice? tell them" becomes "My advice? Tell them"), skipping opening quotation marks.
 */
export function capitalise(sentence: string): string {
  const first = sentence.charAt(0);
  const inner =
    sentence.indexOf('. ', 1) !== -1 || sentence.indexOf('? ', 1) !== -1 || sentence.indexOf('! ', 1) !== -1;
  // The common case (a plain first letter, one sentence) without a Unicode regex: this runs on every quote.
  if (!inner && first >= 'a' && first <= 'z') return first.toUpperCase() + sentence.slice(1);
  if (!inner && first >= 'A' && first <= 'Z') return sentence;
  return sentence.replace(
    /(^|[.?!]\s+)([^\p{L}\s]*)(\p{Ll})/gu,
    (_, start: string, marks: string, letter: string) => start + marks + letter.toUpperCase(),
  );
}
