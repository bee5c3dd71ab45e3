import type { CorpusRow } from '../corpusRow.js';
import { normaliseForIdentity } from '../quoteId.js';
import { AuthorRoster } from './authorRoster.js';
import {
  closeMoodPairs,
  faithSentenceMoods,
  moodCountWeights,
  secondaryCategoryShare,
  sentenceCountWeights,
} from './data/moodPairs.js';
import { eraGroup, type PreparedShapes, preparedData } from './preparedBanks.js';
import { eraImageryProblem } from './eraAgreement.js';
import { composeQuote } from './quoteComposer.js';
import { hash32, Random, WeightedTable } from './random.js';

export interface GenerateOptions {
  size: number;
  seed: number;
}

const moodCounts = new WeightedTable(moodCountWeights);
const sentenceCounts = new WeightedTable(sentenceCountWeights);
const close = new Set(closeMoodPairs.flatMap(([a, b]) => [`${a}+${b}`, `${b}+${a}`]));

/**
 * A curation score on 0-100: log-normal around 16 with a long tail, lifted for much-quoted
 * authors and for short quotes (the ones people share), and bent smoothly below 100 (tanh) so
 * the tail thins out instead of piling up at the cap.
 */
function curationScore(random: Random, popularity: number, characters: number): number {
  const base = Math.exp(Math.log(16) + 0.75 * random.normal());
  const authorFactor = 0.75 + 0.6 * popularity ** 2;
  const lengthFactor = characters < 100 ? 1.1 : characters <= 200 ? 1 : 0.9;
  const score = 100 * Math.tanh((base * authorFactor * lengthFactor) / 100);
  return Math.max(0.1, Math.round(score * 10) / 10);
}

/**
 * The default corpus: `size` realistic, unique quotations by fictional authors, the same for the
 * same seed (and the first n quotes of a larger corpus are the n quotes of a smaller one). A
 * generator, so memory stays flat whatever the size, apart from one 32-bit hash per quote for
 * the uniqueness check.
 */
export function* generateCorpus(options: GenerateOptions): Generator<CorpusRow> {
  const data = preparedData();
  const random = new Random(options.seed);
  const roster = new AuthorRoster(options.seed);
  const seen = new Set<number>();

  for (let produced = 0; produced < options.size; produced++) {
    const category = data.categoryTable.pick(random);
    const prepared = data.categories.get(category)!;
    let faith = prepared.faiths && random.chance(prepared.bank.faith) ? prepared.faiths.pick(random) : null;
    const era = faith ? prepared.erasByFaith.get(faith)!.pick(random) : prepared.eras.pick(random);
    if (faith && !roster.canWrite(era, faith)) faith = null;
    const author = roster.pick(random, era, faith);
    const group = eraGroup(era);

    let sentences = sentenceCounts.pick(random);
    const mainMood = (faith ? prepared.faithMoods : prepared.moods).pick(random);
    // A lone faith sentence only carries the calmer moods; any other main mood gets its own sentence.
    if (faith && sentences === 1 && !faithSentenceMoods.includes(mainMood)) sentences = 2;
    // Every mood on the tag list is voiced by a sentence (or, alone, by a close one's sentence).
    const moodSentences = faith ? sentences - 1 : sentences;
    const moods = [mainMood];
    const companions = prepared.companions.get(mainMood);
    const moodCount =
      !companions || moodSentences === 0 ? 1 : Math.min(moodCounts.pick(random), Math.max(moodSentences, 2));
    for (let tries = 0; companions && moods.length < moodCount && tries < 8; tries++) {
      const mood = companions.pick(random);
      // Faith sentences sit badly next to jokes: a faith quote is never humorous.
      if (moods.includes(mood) || (faith && mood === 'humorous')) continue;
      if (moodSentences <= 1 && !close.has(`${mainMood}+${mood}`)) continue;
      moods.push(mood);
    }

    const secondary = random.chance(secondaryCategoryShare) ? random.pick(prepared.related) : null;
    const cross = data.categories.get(secondary ?? random.pick(prepared.related))!;
    const shapes = moods.map((mood) => data.shapes.get(mood)!) as PreparedShapes[];

    let text = '';
    // Unique by construction is not possible with phrase banks; a collision is simply written
    // again, with one more sentence after a few tries, which makes the space vast.
    for (let attempt = 0; ; attempt++) {
      text = composeQuote({
        random,
        group,
        phrases: prepared.phrases[group],
        crossPhrases: cross.phrases[group],
        faith: faith ? data.faiths.get(faith)! : null,
        moods: shapes,
        sentences,
      });
      // A phrase out of its era (a gun in antiquity, "thou" today) is composed again too.
      if (eraImageryProblem({ era, faith, culture: author.culture, text }) !== null) {
        if (attempt >= 50) throw new Error(`generator: no quote for ${era} agrees with its era after 50 tries`);
        continue;
      }
      const key = hash32(normaliseForIdentity(text));
      if (!seen.has(key)) {
        seen.add(key);
        break;
      }
      if (attempt >= 3) sentences++;
    }

    yield {
      text,
      author: author.name,
      category,
      secondary_category: secondary,
      moods,
      era,
      faith_tradition: faith,
      // UTF-16 length: close enough to characters for a score nudge, and much cheaper.
      score: curationScore(random, author.popularity, text.length),
    };
  }
}
