import { francAll } from 'franc-min';

/**
 * Language detection for imported quotes: franc-min (trigram profiles of 82 languages, ISO
 * 639-3 codes) on every quote long enough to judge, with two shortcuts measured in CORPUS.md:
 *
 * - a quote whose words are mostly English function words is English without asking franc
 *   (franc costs about 0.2 ms a quote; the shortcut keeps a 500,000-row import inside its time);
 * - franc is asked only between the wanted language and the languages collections really mix in,
 *   and the wanted language wins when it scores within `closeEnough` of the best, because franc
 *   mistakes a few plain English sentences for Scots or Dutch.
 *
 * A quote shorter than `minLength` letters is too short for trigrams: it is taken to be in the
 * wanted language unless its words are clearly another's.
 */
export interface LanguageDetector {
  /** The ISO 639-3 code of the quote's language, or 'und' when it cannot tell. */
  detect(text: string): string;
  readonly wanted: string;
}

export const languageSettings = {
  minLength: 24,
  /** Below this many letters franc alone cannot put a quote in another language (see detect). */
  shortQuote: 80,
  closeEnough: 0.9,
  /** Share of a quote's words that must be English function words for the shortcut. */
  englishShare: 0.2,
} as const;

/** Languages franc-min knows, by ISO 639-3 code and by their usual names, for `--language`. */
export const languageNames: Record<string, string> = {
  english: 'eng',
  spanish: 'spa',
  portuguese: 'por',
  french: 'fra',
  romanian: 'ron',
  german: 'deu',
  italian: 'ita',
  dutch: 'nld',
  polish: 'pol',
  turkish: 'tur',
  swedish: 'swe',
  russian: 'rus',
  ukrainian: 'ukr',
  indonesian: 'ind',
  hungarian: 'hun',
  czech: 'ces',
  greek: 'ell',
  arabic: 'arb',
  persian: 'pes',
  hindi: 'hin',
  chinese: 'cmn',
  japanese: 'jpn',
  korean: 'kor',
  vietnamese: 'vie',
};

/** The languages quote collections mix in, compared against the wanted one. */
const usualLanguages = [
  'eng',
  'spa',
  'por',
  'fra',
  'ron',
  'deu',
  'ita',
  'nld',
  'pol',
  'tur',
  'swe',
  'ind',
  'hun',
  'ces',
];

// Words that are English and not, or rarely, words of the usual other languages.
const englishWords = new Set(
  (
    'the and of to is you that it with this your have what when will but they we who my our there ' +
    'from which if or more than been them would only be not for was his her all one are can do ' +
    'i me he she him us their its about into just like how because never always every those these ' +
    'should could where why something nothing anything love life people time world know think ' +
    'its own keep keeps every here yourself himself herself myself whom whose shall must may might then ' +
    'once still yet ever each other many much most some such very good great little man men day way ' +
    'heart mind things thing everything someone nobody without within before after again often rather ' +
    'though while until against between through over under being having made make makes let lets ' +
    'old new first last long own own right wrong true nothing world we our ours yours theirs'
  ).split(' '),
);
// Short, frequent words of the usual other languages: for short quotes, where trigrams mislead.
const otherLanguageWords: Record<string, Set<string>> = Object.fromEntries(
  Object.entries({
    spa: 'el la los las que de del y en es un una por con para no se lo su al como más pero hay muy',
    por: 'o a os as um uma não é do da dos das em na no com para mais mas que de se ao eu você',
    fra: 'le la les et est une des du dans pour pas qui sur ce il elle nous vous avec que de un ne',
    ron: 'și în nu este un o că pe cu la ce din mai sau se de care sunt îl',
    deu: 'der die das und ist nicht ein eine ich sie mit zu den von es auf',
    ita: 'il lo gli di che è non per una sono la le un del della al',
  }).map(([language, words]) => [language, new Set(words.split(' '))]),
);
const otherWords = new Set(Object.values(otherLanguageWords).flatMap((words) => [...words]));
otherWords.delete('a');

/** The other language whose function words a quote uses most, or null. */
function otherLanguageByWords(words: string[]): string | null {
  let best: string | null = null;
  let bestCount = 0;
  for (const [language, set] of Object.entries(otherLanguageWords)) {
    const count = words.filter((word) => set.has(word)).length;
    if (count > bestCount) {
      best = language;
      bestCount = count;
    }
  }
  return best;
}

function letters(text: string): number {
  let count = 0;
  for (const character of text) if (/\p{L}/u.test(character)) count++;
  return count;
}

function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}']+/u)
    .map((word) => word.replace(/'.*$/, ''))
    .filter((word) => word !== '');
}

export function createLanguageDetector(wanted = 'eng'): LanguageDetector {
  const only = [...new Set([wanted, ...usualLanguages])];
  return {
    wanted,
    detect(text: string): string {
      const words = wordsOf(text);
      if (words.length === 0) return 'und';
      let english = 0;
      let other = 0;
      for (const word of words) {
        if (englishWords.has(word)) english++;
        else if (otherWords.has(word)) other++;
      }
      if (english >= 2 && english / words.length >= languageSettings.englishShare && english > other * 2) return 'eng';
      // Several function words of another language and none of English: that language.
      if (other >= 2 && english === 0) return otherLanguageByWords(words) ?? 'und';
      if (letters(text) < languageSettings.minLength) {
        if (other > english) return wanted === 'eng' ? 'und' : wanted;
        return english > 0 ? 'eng' : wanted;
      }
      const ranked = francAll(text, { only, minLength: 1 });
      const [best] = ranked;
      if (!best || best[0] === 'und') return wanted;
      const mine = ranked.find(([code]) => code === wanted);
      if (mine && mine[1] >= languageSettings.closeEnough && english >= other) return wanted;
      // Trigrams mislead on a short quote: without a single function word of another language, keep it.
      if (letters(text) < languageSettings.shortQuote && other === 0) return wanted;
      return best[0];
    },
  };
}

/** A `--language` value (an ISO 639-3 code such as `eng`, or a name such as `english`) as its code, or null. */
export function languageCode(value: string): string | null {
  const key = value.trim().toLowerCase();
  if (Object.values(languageNames).includes(key)) return key;
  return languageNames[key] ?? null;
}
