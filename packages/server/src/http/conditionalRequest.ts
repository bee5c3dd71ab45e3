/** At most this many entity tags of an If-None-Match list are compared: every input is bounded. */
const maxTags = 64;

/**
 * RFC 9110 If-None-Match, weak comparison (what the header uses): `*` matches any current
 * representation; otherwise any listed tag whose opaque part equals this ETag's, `W/` or not.
 * An unparseable value is simply no match, as the RFC has it.
 */
export function ifNoneMatchMatches(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const value = (Array.isArray(header) ? header.join(',') : header).trim();
  if (value === '*') return true;
  const opaque = etag.startsWith('W/') ? etag.slice(2) : etag;
  const tags = value.split(',', maxTags);
  return tags.some((tag) => {
    const trimmed = tag.trim();
    return (trimmed.startsWith('W/') ? trimmed.slice(2) : trimmed) === opaque;
  });
}
