import { taxonomy } from '@quotes/contract';
import Sentiment from 'sentiment';
import { exhortationOpeners, moodCues } from './data/moodCues.js';
import { tagMappingDefaults } from './data/tagMapping.js';

/** The moods inferred from a quote, and the evidence, so the review file can say why. */
export interface InferredMood {
  moods: string[];
  /** AFINN-165 score per word (the `sentiment` package's `comparative`). */
  sentiment: number;
  /** Each mood's points, highest first, for the review file and the tests. */
  scores: Array<[string, number]>;
}

interface CueTable {
  words: Map<string, Array<[string, number]>>;
  prefixes: Array<[string, string, number]>;
  phrases: Array<[string, string, number]>;
}

function buildCues(): CueTable {
  const table: CueTable = { words: new Map(), prefixes: [], phrases: [] };
  for (const [mood, cues] of Object.entries(moodCues)) {
    if (!taxonomy.moods.includes(mood)) throw new Error(`mood cues: '${mood}' is not a mood of the contract`);
    for (const [cue, weight] of Object.entries(cues)) {
      if (cue.includes(' ')) table.phrases.push([` ${cue} `, mood, weight]);
      else if (cue.endsWith('*')) table.prefixes.push([cue.slice(0, -1), mood, weight]);
      else table.words.set(cue, [...(table.words.get(cue) ?? []), [mood, weight]]);
    }
  }
  return table;
}

const cues = buildCues();

// Words repeat across a collection: each word's cues are worked out once (bounded, so memory stays flat).
const cuesOfWord = new Map<string, Array<[string, number]>>();
const noCues: Array<[string, number]> = [];
function cuesOf(token: string): Array<[string, number]> {
  let found = cuesOfWord.get(token);
  if (found) return found;
  found = [...(cues.words.get(token) ?? [])];
  for (const [prefix, mood, weight] of cues.prefixes) if (token.startsWith(prefix)) found.push([mood, weight]);
  if (found.length === 0) found = noCues;
  if (cuesOfWord.size < 200_000) cuesOfWord.set(token, found);
  return found;
}
const openers = new Set(exhortationOpeners);
// The first word of each sentence (after an opening quotation mark, if any).
const sentenceOpener = /(?:^|[.!?;:]\s+)[\s"\u201C\u2018(]*([\p{L}'\u2019]+)/gu;
const analyser = new Sentiment();

/** Points for the sentiment of the whole quote: clear warmth or gloom tips the balance, never alone decides. */
const sentimentWeights = {
  /** comparative at or above which a quote reads as warm. */
  positive: 0.25,
  negative: -0.25,
  strongNegative: -0.6,
};

// Which mood wins a tie: the rarer, more specific moods first, reflective (the quietest) last.
const tieOrder = ['humorous', 'dark', 'poignant', 'serious', 'challenging', 'inspirational', 'uplifting', 'reflective'];

function words(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[\u2018\u2019']/g, '')
    .split(/[^\p{L}\p{N}-]+/u)
    .filter((word) => word !== '');
}

/**
 * Moods of a quote from its words, by the rules in CORPUS.md: every cue word adds its weight to
 * its mood; a sentence opening with an exhortation ("Be", "Never", "Go") adds to inspirational
 * (to challenging when the quote is gloomy); the AFINN sentiment adds to uplifting when warm,
 * to poignant (and, when very low, dark) when gloomy. The highest mood is the first; a second
 * mood is kept when it scores at least three quarters of the first. No points at all leave the
 * quote reflective.
 */
export function inferMood(text: string): InferredMood {
  const tokens = words(text);
  const score: Record<string, number> = Object.fromEntries(taxonomy.moods.map((mood) => [mood, 0]));
  for (const token of tokens) for (const [mood, weight] of cuesOf(token)) score[mood]! += weight;
  if (cues.phrases.length > 0) {
    const joined = ` ${tokens.join(' ')} `;
    for (const [phrase, mood, weight] of cues.phrases) if (joined.includes(phrase)) score[mood]! += weight;
  }

  const analysis = analyser.analyze(text);
  const comparative = analysis.comparative;
  if (comparative >= sentimentWeights.positive) score.uplifting! += 1 + comparative;
  if (comparative <= sentimentWeights.negative) score.poignant! += 1;
  if (comparative <= sentimentWeights.strongNegative) score.dark! += 1;

  let exhorts = false;
  for (const match of text.matchAll(sentenceOpener)) {
    if (openers.has(match[1]!.toLowerCase().replace(/[\u2018\u2019']/g, ''))) {
      exhorts = true;
      break;
    }
  }
  if (exhorts) {
    if (comparative < 0) score.challenging! += 1.5;
    else score.inspirational! += 1.5;
  }
  if (text.trim().endsWith('?')) score.reflective! += 1;

  const ranked = Object.entries(score).sort(
    (a, b) => b[1] - a[1] || tieOrder.indexOf(a[0]) - tieOrder.indexOf(b[0]),
  ) as Array<[string, number]>;
  const [first, second] = ranked;
  const moods: string[] = first![1] <= 0 ? [tagMappingDefaults.defaultMood] : [first![0]];
  if (first![1] > 0 && second && second[1] > 0 && second[1] >= first![1] * 0.75) moods.push(second[0]);
  return { moods, sentiment: comparative, scores: ranked };
}
