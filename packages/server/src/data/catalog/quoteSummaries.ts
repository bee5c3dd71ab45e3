const secondaryCategory = Buffer.from(',"secondary_category":');
const mood = Buffer.from(',"mood":');
const faithTradition = Buffer.from(',"faith_tradition":');
const closingBrace = 0x7d;

/**
 * The QuoteSummary JSON of stored Quote JSON, cut from its bytes. The database builds both in the
 * contract's property order (the quote_json migration), and a summary is its quote without
 * `secondary_category` and `faith_tradition`. In that JSON a quote mark inside a string is
 * escaped, so `,"` always opens a property: the first `,"secondary_category":` and the last
 * `,"faith_tradition":` are those properties. Returns views into one Buffer, in order; undefined
 * when a quote is missing or not of that shape (the caller reads the stored summaries instead).
 */
export function summariesOfQuotes(quotes: readonly (Buffer | undefined)[]): Buffer[] | undefined {
  const cuts = new Uint32Array(quotes.length * 3);
  let total = 0;
  for (const [i, quote] of quotes.entries()) {
    if (quote === undefined) return undefined;
    const secondary = quote.indexOf(secondaryCategory);
    const moodAt = secondary < 0 ? -1 : quote.indexOf(mood, secondary + secondaryCategory.length);
    const faith = quote.lastIndexOf(faithTradition);
    if (moodAt < 0 || faith < moodAt) return undefined;
    cuts.set([secondary, moodAt, faith], i * 3);
    total += secondary + (faith - moodAt) + 1;
  }
  const block = Buffer.allocUnsafe(total);
  const summaries: Buffer[] = [];
  let offset = 0;
  for (const [i, quote] of quotes.entries()) {
    const start = offset;
    offset += (quote as Buffer).copy(block, offset, 0, cuts[i * 3]);
    offset += (quote as Buffer).copy(block, offset, cuts[i * 3 + 1], cuts[i * 3 + 2]);
    block[offset++] = closingBrace;
    summaries.push(block.subarray(start, offset));
  }
  return summaries;
}
