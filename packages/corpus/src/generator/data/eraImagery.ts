/**
 * What a quote of each era must not say, so era, faith and imagery agree (CORPUS.md, "Era,
 * faith and imagery"): no Christian or Islamic imagery before those faiths existed, no machines
 * before the Modern era, no thee-and-thou diction from the Modern era on. The generator composes
 * a quote again when it breaks one of these; a test checks the whole default corpus.
 */
export const eraImageryRules: Array<{ rule: string; eras: string[]; words: RegExp }> = [
  {
    rule: 'Christian imagery before the Common Era',
    eras: ['Ancient'],
    words:
      /\b(christ|christian|christians|jesus|gospel|gospels|church|churches|apostle|apostles|crucifix|calvary|easter|christmas|baptism|eucharist|sacrament|cathedral|pope|bishop|saint|saints|resurrection|holy spirit|lent)\b/i,
  },
  {
    rule: 'Islamic imagery before Islam',
    eras: ['Ancient'],
    words: /\b(allah|quran|qur'an|koran|mosque|mosques|ramadan|hajj|mecca|imam)\b/i,
  },
  {
    rule: 'machines before the Modern era',
    eras: ['Ancient', 'Medieval', 'Early Modern'],
    words:
      /\b(phone|phones|internet|email|computer|computers|screen|screens|car|cars|train|trains|railway|airport|plane|planes|television|radio|online|factory|factories|electric|electricity|photograph|photographs|newspaper|newspapers|smartphone|inbox|traffic|subway|elevator|gun|guns|bullet|bullets|rifle|rifles|telegraph|engine|engines)\b/i,
  },
  {
    rule: 'archaic diction from the Modern era on',
    eras: ['Modern', 'Contemporary', 'Present'],
    words: /\b(thee|thou|thy|thine|hath|doth|dost|'tis|ye|unto|whence|wherefore|shalt|canst|wilt)\b/i,
  },
];

/**
 * Faith traditions and the first era in which the generator may use them: a Christian
 * quote in the Ancient era comes only from the Desert Fathers' culture (fourth-century Egypt,
 * so of the Common Era); an Islamic one only from the Medieval era on.
 */
export const faithFirstEra: Record<string, string> = { Islamic: 'Medieval' };
export const ancientChristianCultures = ['desertFathers'];
