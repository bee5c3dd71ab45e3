import { readFileSync, statSync } from 'node:fs';
import { taxonomy } from '@quotes/contract';
import { parse as parseCsv } from 'csv-parse/sync';
import { CorpusError } from '../errors.js';
import knownAuthors from './data/knownAuthors.json' with { type: 'json' };

/**
 * One real person of the built-in table: years are negative before the Common Era, died null
 * while alive; born null only for the few (Homer, Aesop) whose era is known but not their years.
 */
export interface KnownAuthor {
  name: string;
  born: number | null;
  died: number | null;
  aliases?: string[];
  /** Overrides the era the years give, for the few whose quoted work is far from their forties. */
  era?: string;
}

/** Where a row's era came from, counted in the import report. */
export type EraSource = 'row' | 'authors file' | 'known authors' | 'default';

/** Start year of each era after the first (CORPUS.md): Medieval from 500, ..., Present from 2000. */
const eraStarts: Array<[number, string]> = [
  [2000, 'Present'],
  [1945, 'Contemporary'],
  [1800, 'Modern'],
  [1500, 'Early Modern'],
  [500, 'Medieval'],
];

/** The year an author's quoted work appeared, taken as their fortieth year (or their death, if earlier). */
export function floruit(born: number, died: number | null): number {
  const forties = born + 40;
  return died === null ? forties : Math.min(forties, died);
}

/** The era of a year by the boundaries above. */
export function eraOfYear(year: number): string {
  for (const [start, era] of eraStarts) if (year >= start) return era;
  return 'Ancient';
}

export function eraOfLife(born: number, died: number | null): string {
  return eraOfYear(floruit(born, died));
}

// Honorifics and suffixes that collections add or drop at will: "St. Augustine", "Martin Luther King, Jr.".
const leadingTitles = new Set(['saint', 'st', 'sir', 'dr', 'rev', 'reverend', 'mr', 'mrs', 'ms', 'prof', 'professor']);
const trailingSuffixes = new Set(['jr', 'sr', 'ii', 'iii', 'iv', 'phd', 'md', 'esq', 'obe', 'kbe', 'cbe']);

/**
 * The form author names are compared in: diacritics, apostrophes and ayn/hamza marks dropped
 * (Al-Maʿarri, al-Ma'arri and Al Maarri agree; Thomas à Kempis is Thomas a Kempis), hyphens and
 * dots as spaces, and runs of single letters joined (C.S. Lewis, C. S. Lewis and CS Lewis agree).
 */
export function authorKey(name: string): string {
  const words = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f\u02b0-\u02ff\u2018\u2019'`´]/g, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[øœæđłı]/g, (c) => ({ ø: 'o', œ: 'oe', æ: 'ae', đ: 'd', ł: 'l', ı: 'i' })[c] ?? c)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .split(' ')
    .filter((word) => word !== '');
  const joined: string[] = [];
  let joiningInitials = false;
  for (const word of words) {
    const initial = word.length === 1 && /\p{L}/u.test(word);
    if (initial && joiningInitials) joined[joined.length - 1] += word;
    else joined.push(word);
    joiningInitials = initial;
  }
  return joined.join(' ');
}

/** authorKey without honorifics and suffixes: the second chance of a look-up. */
function bareKey(key: string): string {
  const words = key.split(' ');
  while (words.length > 1 && leadingTitles.has(words[0]!)) words.shift();
  while (words.length > 1 && trailingSuffixes.has(words.at(-1)!)) words.pop();
  return words.join(' ');
}

/** Author name -> era, matched by authorKey and then without titles and suffixes. */
export class AuthorEraTable {
  private readonly exact = new Map<string, string>();
  private readonly bare = new Map<string, string>();

  add(name: string, era: string): void {
    const key = authorKey(name);
    if (key === '') return;
    this.exact.set(key, era);
    const stripped = bareKey(key);
    if (!this.bare.has(stripped)) this.bare.set(stripped, era);
  }

  get size(): number {
    return this.exact.size;
  }

  eraOf(author: string): string | null {
    const key = authorKey(author);
    return this.exact.get(key) ?? this.bare.get(bareKey(key)) ?? null;
  }
}

function requireEra(era: string, where: string): string {
  if (!taxonomy.eras.includes(era)) throw new Error(`${where}: era '${era}' is not in the contract's taxonomy`);
  return era;
}

/** The built-in table (data/knownAuthors.json), checked when the module loads. */
export const knownAuthorTable: readonly KnownAuthor[] = knownAuthors as KnownAuthor[];

const builtIn = new AuthorEraTable();
for (const author of knownAuthorTable) {
  const where = `known authors: '${author.name}'`;
  if (author.born === null) {
    if (!author.era) throw new Error(`${where} needs birth and death years, or an era`);
  } else if (!Number.isInteger(author.born) || (author.died !== null && !Number.isInteger(author.died))) {
    throw new Error(`${where} needs whole birth and death years`);
  } else if (author.died !== null && (author.died < author.born || author.died - author.born > 122)) {
    throw new Error(`${where} has impossible years ${author.born}-${author.died}`);
  }
  const era = author.era ? requireEra(author.era, where) : eraOfLife(author.born!, author.died);
  for (const name of [author.name, ...(author.aliases ?? [])]) builtIn.add(name, era);
}

// Collections quote the same authors again and again: each spelling is looked up once (bounded).
const eraOfSpelling = new Map<string, string | null>();

/** The era of an author in the built-in table, or null. */
export function knownAuthorEra(author: string): string | null {
  let era = eraOfSpelling.get(author);
  if (era === undefined) {
    era = builtIn.eraOf(author);
    if (eraOfSpelling.size < 100_000) eraOfSpelling.set(author, era);
  }
  return era;
}

const eraLookup = new Map(taxonomy.eras.map((era) => [era.toLowerCase().replace(/[\s_-]+/g, ' '), era]));
const year = (value: string): number | null => {
  const match = /^\s*(-?\d{1,4})\s*(bce|bc)?\s*$/i.exec(value);
  if (!match) return null;
  const number = Number(match[1]);
  return match[2] ? -Math.abs(number) : number;
};

/**
 * An authors file is read whole: it is refused past this size (about 300,000 authors of 50
 * bytes), and each of its lines past authorLineCharacters, before anything is held for them.
 */
export const maxAuthorsFileBytes = 16 * 1024 * 1024;
export const authorLineCharacters = 1000;

/**
 * An operator's author file: CSV with `author,era` or `author,born,died` (an empty `died` while
 * alive; `-384` or `384 BC` before the Common Era), a header row optional. Any bad line fails the
 * whole file with its line number: a half-read curation file would silently mis-tag rows.
 */
export function readAuthorsFile(file: string): AuthorEraTable {
  let records: string[][];
  try {
    const size = statSync(file).size;
    if (size > maxAuthorsFileBytes)
      throw new CorpusError(
        `the authors file ${file} is ${(size / 1024 / 1024).toFixed(1)} MB; an authors file is at most ${maxAuthorsFileBytes / 1024 / 1024} MB`,
      );
    records = parseCsv(readFileSync(file), {
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
      bom: true,
      max_record_size: authorLineCharacters,
    }) as string[][];
  } catch (error) {
    if (error instanceof CorpusError) throw error;
    const { code, lines } = error as NodeJS.ErrnoException & { lines?: number };
    if (code === 'CSV_MAX_RECORD_SIZE')
      throw new CorpusError(
        `authors file ${file}, line ${lines}: longer than ${authorLineCharacters} characters (the most one author line may hold)`,
      );
    throw new CorpusError(`cannot read the authors file ${file}: ${code ?? (error as Error).message}`);
  }
  const table = new AuthorEraTable();
  records.forEach((record, index) => {
    const line = index + 1;
    const [author = '', second = '', third] = record;
    if (index === 0 && /^(author|name)$/i.test(author)) return;
    if (author === '' || record.length < 2 || record.length > 3)
      throw new CorpusError(`authors file ${file}, line ${line}: expected author,era or author,born,died`);
    if (record.length === 2) {
      const era = eraLookup.get(second.toLowerCase().replace(/[\s_-]+/g, ' '));
      if (!era)
        throw new CorpusError(
          `authors file ${file}, line ${line}: unknown era '${second}' (use one of ${taxonomy.eras.join(', ')})`,
        );
      table.add(author, era);
      return;
    }
    const born = year(second);
    const died = third === undefined || third === '' ? null : year(third);
    if (born === null || (third !== undefined && third !== '' && died === null) || (died !== null && died < born))
      throw new CorpusError(
        `authors file ${file}, line ${line}: born and died must be years (died empty while alive), got '${second}', '${third ?? ''}'`,
      );
    table.add(author, eraOfLife(born, died));
  });
  return table;
}
