import { taxonomy } from '@quotes/contract';
import { type CorpusRow, problemWithRow } from '../corpusRow.js';
import { type AuthorEraTable, type EraSource, knownAuthorEra } from './authorEras.js';
import { noFaithValues, tagMappingDefaults } from './data/tagMapping.js';
import { type LanguageDetector, languageCode } from './detectLanguage.js';
import { inferMood } from './inferMood.js';
import { fieldKey } from './sourceRecords.js';
import { categoryFromText, mapTags, normaliseTag, splitTags, tagTable } from './tagMapper.js';

export { knownAuthorEra } from './authorEras.js';

export interface MapContext {
  /** Era for rows that give none and whose author no table knows (undefined: such rows are invalid). */
  defaultEra?: string;
  /** The operator's `--authors` file, consulted before the built-in table. */
  authors?: AuthorEraTable | null;
  /** Rows in another language are left out (undefined: no language check). */
  language?: LanguageDetector | null;
}

/** Where a row's moods came from: its own `mood`, its tags, or its text (inferMood). */
export type MoodSource = 'row' | 'tags' | 'text';

export type MappedRecord =
  | {
      row: CorpusRow;
      usedFallbackCategory: boolean;
      unknownTags: string[];
      eraSource: EraSource;
      moodSource: MoodSource;
      problem?: undefined;
      otherLanguage?: undefined;
    }
  | { problem: string; row?: undefined; otherLanguage?: undefined }
  | { otherLanguage: string; row?: undefined; problem?: undefined };

/** A quote id as the service gives it (`q_` and 13 base62 characters), which a corrected row may carry. */
export const quoteIdPattern = /^q_[0-9A-Za-z]{13}$/;

/** Column names accepted for each field; the first is the documented one. */
const fieldAliases = {
  text: ['text', 'quote', 'quotation', 'content', 'body'],
  author: ['author', 'by', 'attribution', 'speaker'],
  category: ['category', 'primary_category'],
  secondary_category: ['secondary_category', 'secondary', 'category2'],
  mood: ['mood', 'moods'],
  era: ['era', 'period'],
  faith_tradition: ['faith_tradition', 'faith', 'tradition', 'religion'],
  score: ['score', 'curation_score'],
  likes: ['likes', 'like_count', 'popularity', 'favorites', 'upvotes'],
  tags: ['tags', 'tag', 'keywords', 'topics', 'categories'],
  id: ['id', 'quote_id'],
  language: ['language', 'lang'],
} as const;

type Field = keyof typeof fieldAliases;

function fieldOf(values: Record<string, unknown>, field: Field): unknown {
  for (const alias of fieldAliases[field]) {
    const value = values[alias];
    if (value !== undefined && value !== null && !(typeof value === 'string' && value.trim() === '')) return value;
  }
  return undefined;
}

/** Keys of a JSON object normalised like CSV headers, so `Secondary Category` works in both. */
function normaliseKeys(values: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) result[fieldKey(key)] ??= value;
  return result;
}

const lookupKey = (value: string) =>
  value
    .trim()
    .toLowerCase()
    .replace(/\s+and\s+/g, ' & ')
    .replace(/[\s_-]+/g, ' ');
function lookupTable(values: readonly string[]): Map<string, string> {
  return new Map(values.map((value) => [lookupKey(value), value]));
}
const categoryLookup = lookupTable(taxonomy.categories);
const moodLookup = lookupTable(taxonomy.moods);
const eraLookup = lookupTable(taxonomy.eras);
const faithLookup = lookupTable(taxonomy.faithTraditions);

/** A taxonomy value spelled any reasonable way (`early-modern`, `Grief and Loss`), or null. */
export function matchCategory(value: string): string | null {
  return categoryLookup.get(lookupKey(value)) ?? null;
}
export function matchEra(value: string): string | null {
  return eraLookup.get(lookupKey(value)) ?? null;
}

const quotePairs: Array<[string, string]> = [
  ['"', '"'],
  ['\u201C', '\u201D'],
  ['\u201E', '\u201C'],
  ['\u00AB', '\u00BB'],
];

/** The text as it will be served: NFC, one space between words, line breaks kept, no wrapping quotation marks. */
export function cleanText(raw: string): string {
  let text = raw
    .normalize('NFC')
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/[^\S\n]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  for (const [open, close] of quotePairs) {
    const inner = text.slice(open.length, text.length - close.length);
    if (
      text.length > 2 &&
      text.startsWith(open) &&
      text.endsWith(close) &&
      !inner.includes(open) &&
      !inner.includes(close)
    ) {
      text = inner.trim();
      break;
    }
  }
  return text;
}

const nameSuffix = /^(jr|sr|[ivx]{1,4}|phd|ph d|md|esq|dds|obe|kbe|cbe)\.?$/i;

/**
 * The author's name: collapsed spaces, no leading dash ("― Oscar Wilde"), and of an
 * "Name, Title of the Work" attribution only the name (suffixes like ", Jr." stay with it).
 */
export function cleanAuthor(raw: string): string {
  const author = raw
    .normalize('NFC')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[\u2015\u2014\u2013~-]+\s*/, '');
  const parts = author.split(',');
  let name = parts[0]!.trim();
  for (const part of parts.slice(1)) {
    if (!nameSuffix.test(part.trim())) break;
    name = `${name}, ${part.trim()}`;
  }
  return name;
}

function stringOf(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

function numberOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  const cleaned = value.trim().replace(/[,_\s](?=\d{3}\b)/g, '');
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(cleaned)) return null;
  return Number(cleaned);
}

/** Score from a like count, documented in CORPUS.md: 20 * log10(1 + likes), at most 100. */
export function scoreFromLikes(likes: number): number {
  return Math.min(100, Math.round(20 * Math.log10(1 + likes) * 10) / 10);
}

function listOf(value: unknown): string[] {
  return splitTags(value);
}

/** One record of an import file as a corpus row, or the problem that keeps it out. */
export function mapRecord(rawValues: Record<string, unknown>, context: MapContext): MappedRecord {
  const values = normaliseKeys(rawValues);

  const rawText = fieldOf(values, 'text');
  if (rawText === undefined) return { problem: 'empty text' };
  const textValue = stringOf(rawText);
  if (textValue === null) return { problem: 'text must be a string' };
  const text = cleanText(textValue);

  const rawAuthor = fieldOf(values, 'author');
  const authorValue = rawAuthor === undefined ? '' : stringOf(rawAuthor);
  if (authorValue === null) return { problem: 'author must be a string' };
  const author = cleanAuthor(authorValue);
  if (author === '') return { problem: 'missing author' };

  let id: string | undefined;
  const rawId = fieldOf(values, 'id');
  if (rawId !== undefined) {
    id = String(rawId).trim();
    if (!quoteIdPattern.test(id))
      return { problem: `id '${String(rawId)}' is not a quote id (q_ and 13 letters or digits)` };
  }

  if (context.language) {
    const rawLanguage = fieldOf(values, 'language');
    let language: string;
    if (rawLanguage !== undefined) {
      const code = languageCode(String(rawLanguage));
      if (!code) return { problem: `unknown language '${String(rawLanguage)}' (an ISO 639-3 code such as eng)` };
      language = code;
    } else {
      language = context.language.detect(text);
    }
    if (language !== context.language.wanted) return { otherLanguage: language };
  }

  const rawTags = fieldOf(values, 'tags');
  const tags = rawTags === undefined ? null : mapTags(listOf(rawTags));

  let category: string | null = null;
  let usedFallbackCategory = false;
  const rawCategory = fieldOf(values, 'category');
  if (rawCategory !== undefined) {
    category = matchCategory(String(rawCategory));
    if (!category) return { problem: `unknown category '${String(rawCategory)}'` };
  } else {
    // No category and no tag naming one: the words of the text, else the fallback category.
    category = tags?.category ?? null;
    if (!category) {
      category = categoryFromText(text) ?? tagMappingDefaults.fallbackCategory;
      usedFallbackCategory = true;
    }
  }

  let secondary: string | null = null;
  const rawSecondary = fieldOf(values, 'secondary_category');
  if (rawSecondary !== undefined) {
    secondary = matchCategory(String(rawSecondary));
    if (!secondary) return { problem: `unknown secondary category '${String(rawSecondary)}'` };
  } else if (tags) {
    secondary = [tags.category, tags.secondaryCategory].find((value) => value && value !== category) ?? null;
  }
  // A secondary category equal to the primary says nothing more: it is dropped, not an error.
  if (secondary === category) secondary = null;

  let moods: string[] = [];
  let moodSource: MoodSource = 'row';
  const rawMoods = fieldOf(values, 'mood');
  if (rawMoods !== undefined) {
    for (const value of listOf(rawMoods)) {
      const mood = moodLookup.get(lookupKey(value));
      if (!mood) return { problem: `unknown mood '${value}'` };
      if (!moods.includes(mood)) moods.push(mood);
    }
  } else if (tags && tags.moods.length > 0) {
    moods = tags.moods;
    moodSource = 'tags';
  }
  if (moods.length === 0) {
    moods = inferMood(text).moods;
    moodSource = 'text';
  }

  let era: string | null;
  let eraSource: EraSource = 'row';
  const rawEra = fieldOf(values, 'era');
  if (rawEra !== undefined) {
    era = matchEra(String(rawEra));
    if (!era) return { problem: `unknown era '${String(rawEra)}'` };
  } else {
    const fromFile = context.authors?.eraOf(author) ?? null;
    const known = fromFile ? null : knownAuthorEra(author);
    era = fromFile ?? known ?? context.defaultEra ?? null;
    eraSource = fromFile ? 'authors file' : known ? 'known authors' : 'default';
    if (!era) return { problem: `no era for '${author}' (give an era, or --default-era)` };
  }

  let faith: string | null = null;
  const rawFaith = fieldOf(values, 'faith_tradition');
  if (rawFaith !== undefined) {
    const value = String(rawFaith);
    if (!noFaithValues.includes(value.trim().toLowerCase())) {
      faith = faithLookup.get(lookupKey(value)) ?? tagTable.get(normaliseTag(value))?.faith ?? null;
      if (!faith) return { problem: `unknown faith tradition '${value}'` };
    }
  } else if (tags) {
    faith = tags.faith;
  }

  let score: number = tagMappingDefaults.defaultScore;
  const rawScore = fieldOf(values, 'score');
  const rawLikes = fieldOf(values, 'likes');
  if (rawScore !== undefined) {
    const value = numberOf(rawScore);
    if (value === null || value < 0) return { problem: `score must be a number >= 0 (got '${String(rawScore)}')` };
    score = value;
  } else if (rawLikes !== undefined) {
    const value = numberOf(rawLikes);
    if (value === null || value < 0) return { problem: `likes must be a number >= 0 (got '${String(rawLikes)}')` };
    score = scoreFromLikes(value);
  }

  const row: CorpusRow = {
    ...(id === undefined ? {} : { id }),
    text,
    author,
    category,
    secondary_category: secondary,
    moods,
    era,
    faith_tradition: faith,
    score,
  };
  const problem = problemWithRow(row);
  if (problem) return { problem };
  return { row, usedFallbackCategory, unknownTags: tags?.unknown ?? [], eraSource, moodSource };
}
