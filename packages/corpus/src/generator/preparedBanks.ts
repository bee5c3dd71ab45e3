import { taxonomy } from '@quotes/contract';
import { type CategoryBank, categoryBanks } from './data/categories/index.js';
import { type FaithBank, faithBanks } from './data/faithBanks.js';
import { defaultEraWeights, moodPairs, oldEras } from './data/moodPairs.js';
import { sentenceShapes } from './data/sentenceShapes.js';
import { gerund, thirdPerson } from './english.js';
import { WeightedTable } from './random.js';

/**
 * The data modules checked against the contract and turned into what the generator uses on
 * every quote: phrase lists per era group with the era markers removed, compiled sentence
 * shapes, and weighted tables. Any inconsistency (a category without a bank, a mood the
 * contract does not have, a slot no bank fills) stops the generator at once with its name.
 */

export type EraGroup = 'old' | 'new';

const slotNames = new Set([
  'subject',
  'metaphor',
  'truth',
  'shadow',
  'image',
  'people',
  'act',
  'acts',
  'acting',
  'advice',
  'quip',
  'xsubject',
  'xtruth',
  'ximage',
  'divine',
  'practice',
  'ftruth',
  'fadvice',
]);

/** Whose act it is, for re-inflecting "their" in an act phrase ({act@you}). */
export type Person = 'they' | 'you' | 'we' | 'i' | 'one' | 'he';
const persons = new Set<Person>(['they', 'you', 'we', 'i', 'one', 'he']);
const actSlots = new Set(['act', 'acts', 'acting']);

export interface SlotRef {
  name: string;
  /** A second, different entry of the same list ({truth2}). */
  second: boolean;
  person: Person;
}

/** A sentence shape split into literal text and slots. */
export type CompiledShape = ReadonlyArray<string | SlotRef>;

export function compileShape(shape: string, where: string): CompiledShape {
  const parts: Array<string | SlotRef> = [];
  let last = 0;
  for (const match of shape.matchAll(/\{(\w+?)(2?)(?:@(\w+))?\}/g)) {
    const name = match[1]!;
    const person = (match[3] ?? 'they') as Person;
    if (!slotNames.has(name)) throw new Error(`${where}: unknown slot {${name}} in "${shape}"`);
    if (!persons.has(person) || (match[3] && !actSlots.has(name)))
      throw new Error(`${where}: bad person in "${match[0]}"`);
    if (match.index > last) parts.push(shape.slice(last, match.index));
    parts.push({ name, second: match[2] === '2', person });
    last = match.index + match[0].length;
  }
  if (last < shape.length) parts.push(shape.slice(last));
  return parts;
}

/** Entries for one era group: '^' entries only in the old eras, '~' only in the new. */
function forGroup(entries: readonly string[], group: EraGroup): string[] {
  const kept: string[] = [];
  for (const entry of entries) {
    if (entry.startsWith('^')) {
      if (group === 'old') kept.push(entry.slice(1));
    } else if (entry.startsWith('~')) {
      if (group === 'new') kept.push(entry.slice(1));
    } else {
      kept.push(entry);
    }
  }
  return kept;
}

export interface PhraseLists {
  subject: string[];
  metaphor: string[];
  truth: string[];
  shadow: string[];
  image: string[];
  people: string[];
  /** Acts in every form and person, index-aligned: `forms['acts@he'][i]` is `act[i]` inflected. */
  act: string[];
  forms: Record<string, string[]>;
  advice: string[];
  quip: string[];
}

const pronouns: Record<Exclude<Person, 'they'>, Record<string, string>> = {
  you: { their: 'your', they: 'you', themselves: 'yourself' },
  we: { their: 'our', they: 'we', themselves: 'ourselves' },
  i: { their: 'my', they: 'I', themselves: 'myself' },
  one: { their: 'one\u2019s', they: 'one', themselves: 'oneself' },
  he: { their: 'his', they: 'he', themselves: 'himself' },
};

// Words after "they" that do not take a person ending: modals and past tenses.
const invariable = new Set([
  'can',
  'cannot',
  'could',
  'will',
  'would',
  'may',
  'might',
  'must',
  'should',
  'shall',
  'came',
  'grew',
  'found',
  'carried',
  'hoped',
  'did',
  'had',
  'knew',
  'said',
  'went',
  'made',
]);

function agree(verb: string, person: Exclude<Person, 'they'>): string {
  if (person === 'you' || person === 'we') return verb;
  if (verb === 'are') return person === 'i' ? 'am' : 'is';
  if (verb === 'were') return 'was';
  if (person === 'i' || invariable.has(verb)) return verb;
  return thirdPerson(verb);
}

/**
 * "keep their word" for `you` is "keep your word", "admit they were wrong" for `i` is "admit I
 * was wrong". In act phrases "they", "their" and "themselves" always mean the doer; "them"
 * always means someone else ("write them down"), so it is left alone.
 */
function inflect(phrase: string, person: Person): string {
  if (person === 'they') return phrase;
  const table = pronouns[person];
  return phrase
    .replace(/\b(their|themselves)\b/g, (word) => table[word]!)
    .replace(
      /\bthey((?: (?:already|really|never|still|always|truly))?) (\w+)/g,
      (_, adverb: string, verb: string) => `${table.they}${adverb} ${agree(verb, person)}`,
    );
}

function actForms(acts: string[]): Record<string, string[]> {
  const forms: Record<string, string[]> = {};
  for (const person of persons) {
    forms[`act@${person}`] = acts.map((act) => inflect(act, person));
    forms[`acts@${person}`] = acts.map((act) => inflect(thirdPerson(act), person));
    forms[`acting@${person}`] = acts.map((act) => inflect(gerund(act), person));
  }
  return forms;
}

export interface PreparedCategory {
  bank: CategoryBank;
  phrases: Record<EraGroup, PhraseLists>;
  moods: WeightedTable<string>;
  /** Main moods for quotes with a faith tradition (never humorous: faith sentences are not jokes). */
  faithMoods: WeightedTable<string>;
  /** Moods that may join each main mood on this category's quotes. */
  companions: Map<string, WeightedTable<string> | null>;
  eras: WeightedTable<string>;
  erasByFaith: Map<string, WeightedTable<string>>;
  faiths: WeightedTable<string> | null;
  related: string[];
}

export interface PreparedFaith {
  bank: FaithBank;
  phrases: Record<EraGroup, { divine: string[]; practice: string[]; ftruth: string[]; fadvice: string[] }>;
  shapes: Record<EraGroup, CompiledShape[]>;
  /** Shapes that also name the category ({subject}, {truth}, ...), for one-sentence quotes. */
  topicalShapes: Record<EraGroup, CompiledShape[]>;
}

const faithSlots = new Set(['divine', 'practice', 'ftruth', 'fadvice']);
const mentionsCategory = (shape: CompiledShape) =>
  shape.some((part) => typeof part !== 'string' && !faithSlots.has(part.name));

export interface PreparedShapes {
  openers: Record<EraGroup, CompiledShape[]>;
  followers: Record<EraGroup, CompiledShape[]>;
}

function requireIn(values: readonly string[], value: string, where: string): void {
  if (!values.includes(value)) throw new Error(`${where}: '${value}' is not in the contract's taxonomy`);
}

function table(
  weights: Partial<Record<string, number>>,
  allowed: readonly string[],
  where: string,
): WeightedTable<string> {
  for (const key of Object.keys(weights)) requireIn(allowed, key, where);
  return new WeightedTable(Object.entries(weights).filter((entry): entry is [string, number] => (entry[1] ?? 0) > 0));
}

const groups: EraGroup[] = ['old', 'new'];

function prepareCategory(bank: CategoryBank): PreparedCategory {
  const where = `category bank '${bank.category}'`;
  requireIn(taxonomy.categories, bank.category, where);
  const phrases = {} as Record<EraGroup, PhraseLists>;
  for (const group of groups) {
    const acts = forGroup(bank.acts, group);
    const lists: PhraseLists = {
      subject: forGroup(bank.subjects, group),
      metaphor: forGroup(bank.metaphors, group),
      truth: forGroup(bank.truths, group),
      shadow: forGroup(bank.shadows, group),
      image: forGroup(bank.images, group),
      people: forGroup(bank.people, group),
      act: acts,
      forms: actForms(acts),
      advice: forGroup(bank.advice, group),
      quip: forGroup(bank.quips, group),
    };
    for (const name of ['subject', 'metaphor', 'truth', 'image', 'people', 'act', 'advice'] as const) {
      if (lists[name].length < 3) throw new Error(`${where}: fewer than 3 ${name} entries for the ${group} eras`);
    }
    if ((bank.moods.dark ?? 0) > 0 && lists.shadow.length < 2)
      throw new Error(`${where}: dark quotes need at least 2 shadows`);
    if ((bank.moods.humorous ?? 0) > 0 && lists.quip.length < 2)
      throw new Error(`${where}: humorous quotes need at least 2 quips`);
    phrases[group] = lists;
  }
  const moods = table(bank.moods, taxonomy.moods, `${where} moods`);
  const faithMoods = table({ ...bank.moods, humorous: 0 }, taxonomy.moods, `${where} moods`);
  const companions = new Map<string, WeightedTable<string> | null>();
  for (const mood of taxonomy.moods) {
    const pairs = moodPairs[mood] ?? {};
    const weights = Object.entries(pairs).map(
      ([other, weight]) => [other, (weight ?? 0) * (bank.moods[other] ?? 0)] as [string, number],
    );
    companions.set(mood, weights.some(([, weight]) => weight > 0) ? new WeightedTable(weights) : null);
  }
  const eraWeights = bank.eras ?? defaultEraWeights;
  const eras = table(eraWeights, taxonomy.eras, `${where} eras`);
  const erasByFaith = new Map<string, WeightedTable<string>>();
  for (const faith of taxonomy.faithTraditions) {
    const faithEras = faithBanks[faith]!.eras;
    const combined = Object.fromEntries(
      taxonomy.eras.map((era) => [era, (eraWeights[era] ?? 0) * (faithEras[era] ?? 0)]),
    );
    // A category rare in the faith's eras (sport in antiquity) still gets the faith's own eras.
    const useful = Object.values(combined).some((weight) => weight > 0) ? combined : faithEras;
    erasByFaith.set(faith, table(useful, taxonomy.eras, `${where} eras for ${faith}`));
  }
  if (bank.faith > 0 && !bank.faiths) throw new Error(`${where}: a faith share without faiths`);
  const faiths = bank.faith > 0 && bank.faiths ? table(bank.faiths, taxonomy.faithTraditions, `${where} faiths`) : null;
  for (const related of bank.related) {
    requireIn(taxonomy.categories, related, `${where} related`);
    if (related === bank.category) throw new Error(`${where}: related to itself`);
  }
  if (bank.related.length === 0) throw new Error(`${where}: no related categories`);
  return { bank, phrases, moods, faithMoods, companions, eras, erasByFaith, faiths, related: bank.related };
}

function compileGroup(shapes: readonly string[], group: EraGroup, where: string): CompiledShape[] {
  const compiled = forGroup(shapes, group).map((shape) => compileShape(shape, where));
  if (compiled.length === 0) throw new Error(`${where}: no shapes for the ${group} eras`);
  return compiled;
}

function prepareFaith(faith: string): PreparedFaith {
  const bank = faithBanks[faith];
  if (!bank) throw new Error(`faith banks: no bank for '${faith}'`);
  const where = `faith bank '${faith}'`;
  for (const era of Object.keys(bank.eras)) requireIn(taxonomy.eras, era, `${where} eras`);
  const phrases = {} as PreparedFaith['phrases'];
  const shapes = {} as PreparedFaith['shapes'];
  const topicalShapes = {} as PreparedFaith['topicalShapes'];
  for (const group of groups) {
    phrases[group] = {
      divine: forGroup(bank.divine, group),
      practice: forGroup(bank.practices, group),
      ftruth: forGroup(bank.truths, group),
      fadvice: forGroup(bank.advice, group),
    };
    shapes[group] = compileGroup(bank.shapes, group, where);
    topicalShapes[group] = shapes[group].filter(mentionsCategory);
    if (topicalShapes[group].length === 0)
      throw new Error(`${where}: no shape names the category for the ${group} eras`);
  }
  return { bank, phrases, shapes, topicalShapes };
}

function prepareShapes(): Map<string, PreparedShapes> {
  const prepared = new Map<string, PreparedShapes>();
  for (const key of Object.keys(sentenceShapes)) requireIn(taxonomy.moods, key, 'sentence shapes');
  for (const mood of taxonomy.moods) {
    const set = sentenceShapes[mood];
    if (!set) throw new Error(`sentence shapes: no shapes for the mood '${mood}'`);
    prepared.set(mood, {
      openers: {
        old: compileGroup(set.openers, 'old', `${mood} openers`),
        new: compileGroup(set.openers, 'new', `${mood} openers`),
      },
      followers: {
        old: compileGroup(set.followers, 'old', `${mood} followers`),
        new: compileGroup(set.followers, 'new', `${mood} followers`),
      },
    });
  }
  return prepared;
}

export interface PreparedData {
  categories: Map<string, PreparedCategory>;
  /** Category weights, in the contract's order. */
  categoryTable: WeightedTable<string>;
  faiths: Map<string, PreparedFaith>;
  shapes: Map<string, PreparedShapes>;
}

let prepared: PreparedData | undefined;

/** The generator's data, checked and compiled once per process. */
export function preparedData(): PreparedData {
  if (prepared) return prepared;
  const categories = new Map<string, PreparedCategory>();
  for (const bank of categoryBanks) {
    if (categories.has(bank.category)) throw new Error(`category banks: two banks for '${bank.category}'`);
    categories.set(bank.category, prepareCategory(bank));
  }
  for (const category of taxonomy.categories) {
    if (!categories.has(category)) throw new Error(`category banks: no bank for the contract's category '${category}'`);
  }
  for (const faith of Object.keys(faithBanks)) requireIn(taxonomy.faithTraditions, faith, 'faith banks');
  for (const mood of Object.keys(moodPairs)) requireIn(taxonomy.moods, mood, 'mood pairs');
  for (const era of oldEras) requireIn(taxonomy.eras, era, 'old eras');
  prepared = {
    categories,
    categoryTable: new WeightedTable(
      taxonomy.categories.map((category) => [category, categories.get(category)!.bank.weight ?? 1] as const),
    ),
    faiths: new Map(taxonomy.faithTraditions.map((faith) => [faith, prepareFaith(faith)])),
    shapes: prepareShapes(),
  };
  return prepared;
}

export function eraGroup(era: string): EraGroup {
  return oldEras.includes(era) ? 'old' : 'new';
}
