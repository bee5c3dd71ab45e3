import { taxonomy } from '@quotes/contract';
import { ancientChristianCultures, eraImageryRules, faithFirstEra } from './data/eraImagery.js';

for (const { rule, eras } of eraImageryRules)
  for (const era of eras)
    if (!taxonomy.eras.includes(era)) throw new Error(`era imagery '${rule}': unknown era '${era}'`);

/** The rule a generated quote breaks (era against faith, imagery or diction), or null. */
export function eraImageryProblem(quote: {
  era: string;
  faith: string | null;
  culture: string;
  text: string;
}): string | null {
  const ofTheCommonEra = ancientChristianCultures.includes(quote.culture);
  if (quote.era === 'Ancient' && quote.faith === 'Christian' && !ofTheCommonEra)
    return 'a Christian quote before the Common Era';
  const first = quote.faith ? faithFirstEra[quote.faith] : undefined;
  if (first && taxonomy.eras.indexOf(quote.era) < taxonomy.eras.indexOf(first))
    return `a ${quote.faith} quote before the ${first} era`;
  for (const { rule, eras, words } of eraImageryRules) {
    if (!eras.includes(quote.era)) continue;
    if (ofTheCommonEra && rule.startsWith('Christian')) continue;
    if (words.test(quote.text)) return rule;
  }
  return null;
}
