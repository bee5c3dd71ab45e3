import { eraOfLife, type KnownAuthor, knownAuthorTable } from '../authorEras.js';

/**
 * The built-in table of real, much-quoted authors lives in knownAuthors.json beside this file:
 * one person a line, `{"name", "born", "died", "aliases"?, "era"?}`, years negative before the
 * Common Era and `died` null while alive (CORPUS.md says how an era follows from the years).
 * This is content: extend the JSON freely. Here its names are grouped by era, for the generator,
 * which must never put invented words in a real person's mouth.
 */
function eraOf(author: KnownAuthor): string {
  return author.era ?? eraOfLife(author.born!, author.died);
}

export const knownAuthorEras: Record<string, string[]> = {};
for (const author of knownAuthorTable) {
  const era = eraOf(author);
  knownAuthorEras[era] = [...(knownAuthorEras[era] ?? []), author.name, ...(author.aliases ?? [])];
}
