import { taxonomy } from '@quotes/contract';
import { knownAuthorEra } from '../import/authorEras.js';
import { normaliseForIdentity } from '../quoteId.js';
import { authorCultures, authorsPerEra, type CultureNames } from './data/authorCultures.js';
import { Random, WeightedTable } from './random.js';

/** A fictional author: one name, one era, one culture, for the whole corpus. */
export interface Author {
  name: string;
  era: string;
  culture: string;
  /** 1 for the most quoted author of their culture and era, towards 0 for the least. */
  popularity: number;
}

interface CulturePool {
  culture: string;
  names: CultureNames;
  authors: Author[];
}

// Real people the importer knows by name must never be generated, whatever the pools combine.
const isRealName = (name: string) => knownAuthorEra(name) !== null;

const initials = 'ABCDEFGHJKLMNPRSTW';

function compound(random: Random, parts: [string[], string[]]): string {
  return random.pick(parts[0]) + random.pick(parts[1]);
}

function feminine(family: string, rules: Array<[string, string]> | undefined): string {
  for (const [suffix, replacement] of rules ?? []) {
    if (family.endsWith(suffix)) return family.slice(0, -suffix.length) + replacement;
  }
  return family;
}

function nameFor(random: Random, names: CultureNames, woman: boolean): string {
  const given = woman ? names.female : names.male;
  const format = random.pick(woman ? names.formats.female : names.formats.male);
  const first = random.pick(given);
  return format.replace(/\{(\w+)(?::(\w+))?\}/g, (_, slot: string, option: string | undefined) => {
    switch (slot) {
      case 'given':
        return first;
      case 'given2': {
        const pool = option === 'male' ? names.male : given;
        let other = random.pick(pool);
        for (let tries = 0; other === first && tries < 5; tries++) other = random.pick(pool);
        return other;
      }
      case 'family': {
        const family = names.family ? random.pick(names.family) : compound(random, names.familyParts!);
        return woman ? feminine(family, names.feminine) : family;
      }
      case 'place':
        return names.places ? random.pick(names.places) : compound(random, names.placeParts!);
      case 'initial':
        return random.pick([...initials]);
      default:
        throw new Error(`author cultures: unknown name slot {${slot}}`);
    }
  });
}

/**
 * Every author of a corpus, made up front from the seed: per era, a fixed number of people
 * spread over the cultures that write in that era. Quotes then draw from these pools, the
 * first names of each pool far more often than the last (a few authors are quoted a lot, most
 * only a little), as in real collections.
 */
export class AuthorRoster {
  private readonly pools = new Map<string, CulturePool[]>();
  private readonly tables = new Map<string, Map<string, WeightedTable<CulturePool> | null>>();

  constructor(seed: number) {
    const random = new Random((seed ^ 0x5eed_a17b) >>> 0);
    const taken = new Set<string>();
    for (const [name, culture] of Object.entries(authorCultures)) {
      for (const era of Object.keys(culture.eras)) {
        if (!taxonomy.eras.includes(era))
          throw new Error(`author culture '${name}': era '${era}' is not in the contract`);
      }
      for (const faith of Object.keys(culture.faiths ?? {})) {
        if (!taxonomy.faithTraditions.includes(faith))
          throw new Error(`author culture '${name}': faith '${faith}' is not in the contract`);
      }
    }
    for (const era of taxonomy.eras) {
      const cultures = Object.entries(authorCultures).filter(([, culture]) => (culture.eras[era] ?? 0) > 0);
      if (cultures.length === 0) throw new Error(`author cultures: no culture writes in the era '${era}'`);
      const totalWeight = cultures.reduce((sum, [, culture]) => sum + culture.eras[era]!, 0);
      const eraSize = authorsPerEra[era];
      if (!eraSize) throw new Error(`author cultures: no author count for the era '${era}'`);
      const pools: CulturePool[] = [];
      for (const [cultureName, names] of cultures) {
        const wanted = Math.max(12, Math.round((eraSize * names.eras[era]!) / totalWeight));
        const authors: Author[] = [];
        // Small name spaces run out before `wanted`: the pool is then simply smaller.
        for (let attempts = 0; authors.length < wanted && attempts < wanted * 6; attempts++) {
          const woman = random.chance(names.women?.[era] ?? 0.5);
          const name = nameFor(random, names, woman);
          const key = normaliseForIdentity(name);
          if (taken.has(key) || isRealName(name)) continue;
          taken.add(key);
          authors.push({ name, era, culture: cultureName, popularity: 0 });
        }
        authors.forEach((author, index) => {
          author.popularity = 1 - index / authors.length;
        });
        pools.push({ culture: cultureName, names, authors });
      }
      this.pools.set(era, pools);
    }
  }

  private tableFor(era: string, faith: string | null): WeightedTable<CulturePool> | null {
    let byFaith = this.tables.get(era);
    if (!byFaith) {
      byFaith = new Map();
      this.tables.set(era, byFaith);
    }
    const key = faith ?? '';
    if (!byFaith.has(key)) {
      const pools = this.pools.get(era) ?? [];
      const entries = pools
        .map(
          (pool) => [pool, pool.names.eras[era]! * (faith === null ? 1 : (pool.names.faiths?.[faith] ?? 0))] as const,
        )
        .filter(([pool, weight]) => weight > 0 && pool.authors.length > 0);
      byFaith.set(key, entries.length > 0 ? new WeightedTable(entries) : null);
    }
    return byFaith.get(key)!;
  }

  /** Whether some culture of the era writes from this faith tradition. */
  canWrite(era: string, faith: string): boolean {
    return this.tableFor(era, faith) !== null;
  }

  /** An author of the era (and of a culture that writes from the faith, when one is given). */
  pick(random: Random, era: string, faith: string | null): Author {
    const table = this.tableFor(era, faith) ?? this.tableFor(era, null);
    if (!table) throw new Error(`no author can write in the era '${era}'`);
    const pool = table.pick(random);
    // Skewed towards the start of the pool: the first authors are the much-quoted ones.
    return pool.authors[Math.floor(pool.authors.length * random.next() ** 1.7)]!;
  }

  /** Every author, for tests and reports. */
  all(): Author[] {
    return [...this.pools.values()].flat().flatMap((pool) => pool.authors);
  }
}
