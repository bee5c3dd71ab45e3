/**
 * Which moods may accompany each main mood on the same quote (a dark quote may also be serious
 * or poignant, rarely humorous; an uplifting one never dark). Relative weights.
 */
export const moodPairs: Record<string, Partial<Record<string, number>>> = {
  challenging: { serious: 4, inspirational: 4, reflective: 3, humorous: 1, dark: 1 },
  dark: { serious: 4, poignant: 4, reflective: 3, challenging: 2, humorous: 1 },
  humorous: { reflective: 3, uplifting: 3, challenging: 1, dark: 1 },
  inspirational: { uplifting: 5, challenging: 3, reflective: 2, serious: 1 },
  poignant: { reflective: 5, uplifting: 2, dark: 2, serious: 1 },
  reflective: { poignant: 4, serious: 3, uplifting: 3, inspirational: 2, challenging: 2, dark: 1, humorous: 1 },
  serious: { reflective: 4, challenging: 3, dark: 2, inspirational: 2 },
  uplifting: { inspirational: 5, reflective: 3, poignant: 2, humorous: 1 },
};

/**
 * Pairs close enough in tone that one sentence carries both (a one-sentence quote only gets a
 * second mood from this list; longer quotes give each mood a sentence of its own).
 */
export const closeMoodPairs: Array<[string, string]> = [
  ['inspirational', 'uplifting'],
  ['reflective', 'poignant'],
  ['reflective', 'serious'],
  ['reflective', 'uplifting'],
  ['serious', 'challenging'],
  ['dark', 'serious'],
  ['dark', 'poignant'],
  ['humorous', 'uplifting'],
];

/** Moods a lone sentence in a faith tradition's voice carries; other moods need a sentence of their own. */
export const faithSentenceMoods = ['reflective', 'serious', 'uplifting', 'inspirational'];

/** Share of quotes with one, two and three moods (as many as the quote has sentences for). */
export const moodCountWeights: Array<[number, number]> = [
  [1, 40],
  [2, 42],
  [3, 18],
];

/** How often each era occurs when a category does not say otherwise. */
export const defaultEraWeights: Record<string, number> = {
  Ancient: 10,
  Medieval: 10,
  'Early Modern': 14,
  Modern: 22,
  Contemporary: 24,
  Present: 20,
};

/** Eras whose quotes may use '^' entries (the others use '~' entries). */
export const oldEras = ['Ancient', 'Medieval', 'Early Modern'];

/**
 * Sentences per quote, chosen before writing it: one sentence is almost always Short, two
 * usually Medium, three or four Long (the length itself is always derived from the text).
 */
export const sentenceCountWeights: Array<[number, number]> = [
  [1, 46],
  [2, 34],
  [3, 14],
  [4, 6],
];

/** Share of quotes with a secondary category (drawn from the category's related ones). */
export const secondaryCategoryShare = 0.84;
