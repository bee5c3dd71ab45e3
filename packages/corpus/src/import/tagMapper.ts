import { taxonomy } from '@quotes/contract';
import { categoryTags, faithCategory, faithTags, moodTags, tagMappingDefaults } from './data/tagMapping.js';

/** What one normalised tag says about a quote. */
export interface TagMeaning {
  category?: { name: string; specific: boolean };
  moods: string[];
  faith?: string;
}

/** What a row's tags say together; `unknown` lists the tags the table does not know. */
export interface MappedTags {
  category: string | null;
  secondaryCategory: string | null;
  moods: string[];
  faith: string | null;
  unknown: string[];
}

function requireTaxonomyValue(values: readonly string[], value: string, where: string): string {
  if (!values.includes(value))
    throw new Error(`tag mapping: ${where} names '${value}', which is not in the contract's taxonomy`);
  return value;
}

/** Lower case, '-' and '_' as spaces, collapsed spaces, no trailing "quote(s)": "Love-Quotes" is "love". */
export function normaliseTag(tag: string): string {
  return tag
    .normalize('NFC')
    .toLowerCase()
    .replace(/[-_]+/g, ' ')
    .replace(/[^\p{L}\p{N}' ]+/gu, ' ')
    .replace(/'/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\s*\bquotes?$/, '')
    .trim();
}

function buildTable(): Map<string, TagMeaning> {
  const table = new Map<string, TagMeaning>();
  const entry = (tag: string): TagMeaning => {
    const key = normaliseTag(tag);
    let meaning = table.get(key);
    if (!meaning) {
      meaning = { moods: [] };
      table.set(key, meaning);
    }
    return meaning;
  };
  for (const [category, tags] of Object.entries(categoryTags)) {
    requireTaxonomyValue(taxonomy.categories, category, 'categoryTags');
    for (const mood of tags.moods ?? [])
      requireTaxonomyValue(taxonomy.moods, mood, `categoryTags['${category}'].moods`);
    for (const [list, specific] of [
      [tags.specific, true],
      [tags.broad ?? [], false],
    ] as const) {
      for (const tag of list) {
        const meaning = entry(tag);
        if (!meaning.category || (specific && !meaning.category.specific))
          meaning.category = { name: category, specific };
        for (const mood of tags.moods ?? []) if (!meaning.moods.includes(mood)) meaning.moods.push(mood);
      }
    }
  }
  for (const [mood, tags] of Object.entries(moodTags)) {
    requireTaxonomyValue(taxonomy.moods, mood, 'moodTags');
    for (const tag of tags) {
      const meaning = entry(tag);
      // A tag that names a mood outright puts that mood first.
      meaning.moods = [mood, ...meaning.moods.filter((other) => other !== mood)];
    }
  }
  requireTaxonomyValue(taxonomy.categories, faithCategory, 'faithCategory');
  for (const [faith, tags] of Object.entries(faithTags)) {
    requireTaxonomyValue(taxonomy.faithTraditions, faith, 'faithTags');
    for (const tag of tags) {
      const meaning = entry(tag);
      meaning.faith = faith;
      meaning.category ??= { name: faithCategory, specific: false };
    }
  }
  requireTaxonomyValue(taxonomy.categories, tagMappingDefaults.fallbackCategory, 'fallbackCategory');
  requireTaxonomyValue(taxonomy.moods, tagMappingDefaults.defaultMood, 'defaultMood');
  return table;
}

/** The mapping table, built once from the data in data/tagMapping.ts. */
export const tagTable: ReadonlyMap<string, TagMeaning> = buildTable();

/** Splits a `tags` value: a comma/semicolon/pipe separated string, or an array of strings. */
export function splitTags(value: unknown): string[] {
  const parts = Array.isArray(value)
    ? value.flatMap((item) => (typeof item === 'string' ? item.split(/[,;|]/) : []))
    : typeof value === 'string'
      ? value.split(/[,;|]/)
      : [];
  return parts.map((part) => part.trim()).filter((part) => part !== '');
}

/**
 * Maps free-form tags onto the taxonomy: the first specific category tag is the primary
 * category (else the first broad one), the next distinct category the secondary; moods and the
 * faith tradition come from the tags in their order.
 */
export function mapTags(tags: readonly string[]): MappedTags {
  const specific: string[] = [];
  const broad: string[] = [];
  const moods: string[] = [];
  const unknown: string[] = [];
  let faith: string | null = null;
  for (const tag of tags) {
    const key = normaliseTag(tag);
    if (key === '') continue;
    const meaning = tagTable.get(key);
    if (!meaning) {
      unknown.push(key);
      continue;
    }
    if (meaning.category) (meaning.category.specific ? specific : broad).push(meaning.category.name);
    for (const mood of meaning.moods) if (!moods.includes(mood)) moods.push(mood);
    faith ??= meaning.faith ?? null;
  }
  const categories = [...new Set([...specific, ...broad])];
  return {
    category: categories[0] ?? null,
    secondaryCategory: categories[1] ?? null,
    moods: moods.slice(0, tagMappingDefaults.maxMoodsFromTags),
    faith,
    unknown,
  };
}

/**
 * A category for a row whose tags name none, from the words of its text read as tags: the first
 * word that is a specific category tag ("grief", "marriage"), else the first broad one ("life").
 * Only the category: a word in a quote is weaker evidence of a faith or a mood than a tag.
 */
export function categoryFromText(text: string): string | null {
  let broad: string | null = null;
  for (const word of text.toLowerCase().split(/[^\p{L}]+/u)) {
    if (word.length < 3) continue;
    const category = tagTable.get(word)?.category;
    if (!category) continue;
    if (category.specific) return category.name;
    broad ??= category.name;
  }
  return broad;
}
