/** Characters of a key in the server's own format (`qk_` and 24) that it shows its owner: `qk_` and eight. */
const shownOfIssuedKey = 11;

/**
 * How a key appears in anything the suite prints: the start its owner recognises (`qk_AbCd1234…`,
 * as the server's operator output shows it), never more than half of any key.
 */
export function keyHint(key: string): string {
  const shown = /^qk_[A-Za-z0-9]{24}$/.test(key)
    ? shownOfIssuedKey
    : Math.min(shownOfIssuedKey, Math.floor(key.length / 2));
  return `${key.slice(0, shown)}…`;
}
