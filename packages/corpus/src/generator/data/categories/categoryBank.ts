/**
 * What the generator knows about one category: how often it occurs, which moods, eras, faith
 * traditions and secondary categories suit it, and the phrase banks its quotations are made
 * of. The slot each bank fills is described in ../sentenceShapes.ts; in short:
 *
 * - subjects: bare nouns, no article ("grief", "old age"): "{subject} is ..."
 * - metaphors: what a subject "is" ("the rent we pay on rooms that once held laughter")
 * - truths / shadows: whole clauses, lower case, no final stop; shadows are the dark ones
 * - images: concrete things with their article ("an empty chair at the table")
 * - people: plural ("those who mourn"), acts: verb phrases in the base form ("say their names
 *   aloud", never "you"/"my": they are also used in the third person), advice: imperatives
 * - quips: whole humorous sentences with their final punctuation
 *
 * Entries starting with '^' are only used for the old eras (Ancient, Medieval, Early Modern),
 * with '~' only for the new ones (Modern, Contemporary, Present).
 */
export interface CategoryBank {
  /** The category, spelled exactly as in the contract. */
  category: string;
  /** Relative share of the corpus (default 1). */
  weight?: number;
  /** Relative weight of each mood as the quote's main mood. */
  moods: Partial<Record<string, number>>;
  /** Relative weight of each era, when it differs from the corpus-wide default. */
  eras?: Partial<Record<string, number>>;
  /** Share of quotes with a faith tradition (0-1), and which ones. */
  faith: number;
  faiths?: Partial<Record<string, number>>;
  /** Categories that may be the secondary category. */
  related: string[];
  subjects: string[];
  metaphors: string[];
  truths: string[];
  shadows: string[];
  images: string[];
  people: string[];
  acts: string[];
  advice: string[];
  quips: string[];
}
