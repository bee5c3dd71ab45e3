import { capitalise } from './english.js';
import type { CompiledShape, EraGroup, PhraseLists, PreparedFaith, PreparedShapes } from './preparedBanks.js';
import type { Random } from './random.js';

export interface Composition {
  random: Random;
  group: EraGroup;
  phrases: PhraseLists;
  /** The secondary category's phrases, for {xsubject} {xtruth} {ximage}. */
  crossPhrases: PhraseLists;
  faith: PreparedFaith | null;
  /** Shapes of the quote's moods, main mood first. */
  moods: PreparedShapes[];
  sentences: number;
}

const tries = 8;

// Entries without a semicolon, for slots next to another clause ("{advice}; {truth}"), so a
// sentence never stacks two semicolons. Cached per list; lists live as long as the process.
const withoutSemicolon = new WeakMap<readonly string[], readonly string[]>();
function singleClause(list: readonly string[]): readonly string[] {
  let clean = withoutSemicolon.get(list);
  if (!clean) {
    const filtered = list.filter((entry) => !entry.includes(';'));
    clean = filtered.length > 0 ? filtered : list;
    withoutSemicolon.set(list, clean);
  }
  return clean;
}

/** One sentence, its slots filled without repeating an entry already used in the quote. */
function fill(shape: CompiledShape, composition: Composition, used: Set<string>): string {
  const { random, phrases, crossPhrases, faith, group } = composition;
  let sentence = '';
  for (let position = 0; position < shape.length; position++) {
    const part = shape[position]!;
    if (typeof part === 'string') {
      sentence += part;
      continue;
    }
    if (part.name === 'act' || part.name === 'acts' || part.name === 'acting') {
      // The forms of one act share an index: "keep their word" and "keeping one's word" are one entry.
      let index = random.int(phrases.act.length);
      for (let attempt = 0; used.has(`act:${index}`) && attempt < tries; attempt++)
        index = random.int(phrases.act.length);
      used.add(`act:${index}`);
      sentence += phrases.forms[`${part.name}@${part.person}`]![index];
      continue;
    }
    let list: readonly string[];
    switch (part.name) {
      case 'xsubject':
        list = crossPhrases.subject;
        break;
      case 'xtruth':
        list = crossPhrases.truth;
        break;
      case 'ximage':
        list = crossPhrases.image;
        break;
      case 'divine':
      case 'practice':
      case 'ftruth':
      case 'fadvice':
        list = faith ? faith.phrases[group][part.name] : phrases.truth;
        break;
      default:
        list = phrases[part.name as Exclude<keyof PhraseLists, 'forms' | 'act'>];
    }
    const previous = shape[position - 1];
    const next = shape[position + 1];
    if ((typeof next === 'string' && /^[;,:]/.test(next)) || (typeof previous === 'string' && /;\s*$/.test(previous)))
      list = singleClause(list);
    let choice = random.pick(list);
    for (let attempt = 0; used.has(choice) && attempt < tries; attempt++) choice = random.pick(list);
    used.add(choice);
    sentence += choice;
  }
  return capitalise(sentence);
}

/**
 * A quotation of `sentences` sentences. The sentences take the quote's moods in turn, so each
 * mood on its tag list is voiced: the first an opener in the main mood, the others a follower
 * (or, now and then, another opener) in the next mood. A quote with a faith tradition gets one
 * sentence in that tradition's voice, first or last.
 */
export function composeQuote(composition: Composition): string {
  const { random, moods, sentences, faith, group } = composition;
  const used = new Set<string>();
  const faithAt = faith ? (sentences === 1 || random.chance(0.5) ? 0 : sentences - 1) : -1;
  const parts: string[] = [];
  let voiced = 0;
  for (let index = 0; index < sentences; index++) {
    let shape: CompiledShape;
    if (index === faithAt) {
      // Alone, the faith sentence must also speak of the category (a Grief quote speaks of loss).
      shape = random.pick(sentences === 1 ? faith!.topicalShapes[group] : faith!.shapes[group]);
    } else {
      const mood = moods[voiced % moods.length]!;
      shape =
        voiced === 0 || random.chance(0.3) ? random.pick(mood.openers[group]) : random.pick(mood.followers[group]);
      voiced++;
    }
    parts.push(fill(shape, composition, used));
  }
  return parts.join(' ');
}
