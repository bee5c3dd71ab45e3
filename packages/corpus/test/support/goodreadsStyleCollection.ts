// A Goodreads-style quote collection, as public dumps look: columns quote,author,tags,likes; no
// era; free-form tags (`claire-danvers, funny, vampires`); authors as "Name, Book title", real
// ones from the built-in table (written every way collections write them) and people it does
// not know; some Portuguese, Romanian, Spanish and French quotes; repeated rows; a few broken
// ones. The machine has no internet, so the import tests and the CORPUS.md timings use this.
// `npx tsx test/corpus/support/goodreadsStyleCollection.ts FILE [ROWS]` writes one.
import { createWriteStream } from 'node:fs';
import { stringify } from 'csv-stringify/sync';
import { once } from 'node:events';
import { generateCorpus } from '../../src/generator/generateCorpus.js';
import { Random } from '../../src/generator/random.js';
import { knownAuthorEra, knownAuthorTable } from '../../src/import/authorEras.js';

export interface CollectionShape {
  rows: number;
  seed?: number;
}

/** What the collection holds, so a test can check the import against it. */
export interface CollectionCounts {
  rows: number;
  english: number;
  otherLanguage: number;
  repeated: number;
  broken: number;
  knownAuthors: number;
  unknownAuthors: number;
}

const foreignQuotes: Record<string, string[]> = {
  por: [
    'O amor é fogo que arde sem se ver, é ferida que dói e não se sente.',
    'Tudo vale a pena quando a alma não é pequena.',
    'A vida é aquilo que acontece enquanto você está ocupado fazendo outros planos.',
    'Não sou nada. Nunca serei nada. Não posso querer ser nada.',
    'O homem é do tamanho do seu sonho, e a saudade é o amor que fica.',
    'Quem não tem coragem de sonhar não terá forças para lutar pelos seus sonhos.',
    'É preciso ter o caos dentro de si para dar à luz uma estrela que dança.',
    'Felicidade é a certeza de que a nossa vida não está passando inutilmente.',
  ],
  ron: [
    'Cine nu știe să asculte nu va ști niciodată să vorbească cu adevărat.',
    'Iubirea este singurul lucru care crește atunci când îl împarți cu alții.',
    'Viața nu este despre a aștepta să treacă furtuna, ci despre a învăța să dansezi în ploaie.',
    'Omul este ceea ce face din el însuși, nu ceea ce spun alții despre el.',
    'Timpul nu iartă pe nimeni, dar ne învață pe toți să fim mai înțelepți.',
    'Fericirea nu este o destinație, este un fel de a călători prin lume.',
    'Cuvintele frumoase nu costă nimic, dar aduc bucurie celor din jur.',
    'Singurătatea este prețul pe care îl plătim pentru libertatea noastră.',
  ],
  spa: [
    'Caminante, no hay camino, se hace camino al andar.',
    'El amor es tan corto y el olvido es tan largo.',
    'La vida es sueño, y los sueños, sueños son.',
    'No hay mal que por bien no venga, ni dolor que dure cien años.',
    'Podrán cortar todas las flores, pero no podrán detener la primavera.',
    'Quien no ha sufrido no sabe lo que es la felicidad de verdad.',
    'La libertad no se pide, se conquista todos los días con esfuerzo.',
    'Los libros son los amigos más fieles que tenemos en la vida.',
  ],
  fra: [
    'On ne voit bien qu’avec le cœur. L’essentiel est invisible pour les yeux.',
    'Le cœur a ses raisons que la raison ne connaît point.',
    'La vie est un sommeil, l’amour en est le rêve, et vous aurez vécu si vous avez aimé.',
    'Il n’y a qu’un bonheur dans la vie, c’est d’aimer et d’être aimé.',
    'Je pense, donc je suis, et je doute de tout ce que je ne vois pas.',
    'Le bonheur est parfois caché dans l’inconnu, il faut oser le chercher.',
    'La liberté commence où l’ignorance finit, disait mon vieux professeur.',
    'Rien ne sert de courir, il faut partir à point et garder courage.',
  ],
};

const foreignAuthors = [
  'Fernando Pessoa',
  'Clarice Lispector',
  'Mihai Eminescu',
  'Antonio Machado',
  'Pablo Neruda',
  'Antoine de Saint-Exupery',
  'Mario Quintana',
  'Octavian Paler',
  'Ana Blandiana',
  'Augusto Cury',
];

// People the built-in table does not know: a collection's long tail.
const unknownFirst = [
  'Kayla',
  'Brandon',
  'Meredith',
  'Tobias',
  'Aurora',
  'Dax',
  'Juniper',
  'Colton',
  'Sienna',
  'Rowan',
];
const unknownLast = [
  'Hollister',
  'Vance',
  'Ashworth',
  'Quill',
  'Marlowe-Grey',
  'Darrow',
  'Fenwick',
  'Lockridge',
  'Sable',
];

const bookTitles = [
  'The Lightning Thief',
  'Glass Houses (The Morganville Vampires, #1)',
  'City of Bones',
  'The Collected Works',
  'Letters to a Young Friend',
  'Midnight Alley',
  'Selected Essays',
  'A Year of Quiet Days',
  'The Long Road Home',
  'Notebooks',
];

const moodTags = ['funny', 'humor', 'inspirational', 'motivational', 'sad', 'hope', 'romantic', 'wisdom', 'dark'];
const topicTags = [
  'love',
  'life',
  'friendship',
  'death',
  'books',
  'writing',
  'faith',
  'god',
  'truth',
  'happiness',
  'time',
  'war',
  'politics',
  'science',
  'family',
  'philosophy',
  'christianity',
  'buddhism',
];
const strayTags = [
  'claire-danvers',
  'vampires',
  'morganville',
  'shane-collins',
  'percy-jackson',
  'annabeth',
  'clace',
  'jace-wayland',
  'book-1',
  'favorites',
  'quotes-i-love',
  'to-read',
  'ya',
  'series',
];

/** Real names the way collections write them: initials spaced or not, accents kept or lost, "Jr." and titles. */
function spelledAsCollectionsDo(name: string, random: Random): string {
  const variant = random.int(6);
  if (variant === 0) return name.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  if (variant === 1) return name.replace(/\b([A-Z])\.\s?(?=[A-Z]\.)/g, '$1. ');
  if (variant === 2) return name.replace(/\./g, '');
  if (variant === 3) return `  ${name} `;
  return name;
}

/** One CSV line without its line break (RFC 4180 quoting by csv-stringify). */
const csvLine = (values: readonly (string | number)[]) =>
  stringify([values], { record_delimiter: 'unix' }).slice(0, -1);

/** Streams the collection as CSV lines; `counts` is filled in as it goes. */
export function* goodreadsStyleLines(shape: CollectionShape, counts: CollectionCounts): Generator<string> {
  const random = new Random(shape.seed ?? 2026);
  // The most quoted real people are quoted most: the table's order is by era, so weights come from a shuffle.
  const realAuthors = knownAuthorTable.map((author) => author.name);
  for (let i = realAuthors.length - 1; i > 0; i--) {
    const j = random.int(i + 1);
    [realAuthors[i], realAuthors[j]] = [realAuthors[j]!, realAuthors[i]!];
  }
  realAuthors.unshift('Thomas à Kempis', 'Al-Maʿarri', 'Martin Luther King Jr.', 'C.S. Lewis', 'José Saramago');
  const texts = generateCorpus({ size: shape.rows, seed: (shape.seed ?? 2026) + 1 });
  const earlier: string[] = [];
  yield 'quote,author,tags,likes';
  for (let row = 0; row < shape.rows; row++) {
    counts.rows++;
    if (earlier.length > 0 && random.chance(0.025)) {
      counts.repeated++;
      const line = earlier[random.int(earlier.length)]!;
      yield random.chance(0.5) ? line : line.replace(/^"?/, (open) => `${open}  `);
      continue;
    }
    if (random.chance(0.002)) {
      counts.broken++;
      yield csvLine(['', 'Anonymous', 'life', 3]);
      continue;
    }
    const tags: string[] = [];
    const tagCount = random.int(5);
    for (let t = 0; t < tagCount; t++) {
      const kind = random.next();
      tags.push(kind < 0.25 ? random.pick(moodTags) : kind < 0.65 ? random.pick(topicTags) : random.pick(strayTags));
    }
    let text: string;
    let author: string;
    if (random.chance(0.035)) {
      counts.otherLanguage++;
      const language = random.pick(Object.keys(foreignQuotes));
      const bank = foreignQuotes[language]!;
      text = `${random.pick(bank)} ${random.pick(bank)}`;
      author = random.pick(foreignAuthors);
    } else {
      counts.english++;
      text = texts.next().value?.text ?? `Quote number ${row} of a long day.`;
      if (random.chance(0.6)) {
        const index = Math.floor(realAuthors.length * random.next() ** 3);
        author = spelledAsCollectionsDo(realAuthors[index]!, random);
        if (knownAuthorEra(author) === null) throw new Error(`collection: '${author}' should be a known author`);
        counts.knownAuthors++;
      } else {
        author = `${random.pick(unknownFirst)} ${random.pick(unknownLast)}`;
        counts.unknownAuthors++;
      }
    }
    if (random.chance(0.5)) author = `${author}, ${random.pick(bookTitles)}`;
    const quoted = random.chance(0.7) ? `\u201C${text}\u201D` : text;
    const line = csvLine([quoted, author, tags.join(', '), random.int(5000)]);
    earlier.push(line);
    if (earlier.length > 5000) earlier.splice(0, 1000);
    yield line;
  }
}

export function emptyCounts(): CollectionCounts {
  return { rows: 0, english: 0, otherLanguage: 0, repeated: 0, broken: 0, knownAuthors: 0, unknownAuthors: 0 };
}

/** Writes the collection to `file` and returns what it holds. */
export async function writeGoodreadsStyleCollection(file: string, shape: CollectionShape): Promise<CollectionCounts> {
  const counts = emptyCounts();
  const output = createWriteStream(file);
  let chunk = '';
  for (const line of goodreadsStyleLines(shape, counts)) {
    chunk += `${line}\n`;
    if (chunk.length > 256 * 1024) {
      if (!output.write(chunk)) await once(output, 'drain');
      chunk = '';
    }
  }
  output.end(chunk);
  await once(output, 'finish');
  return counts;
}

if (process.argv[1]?.endsWith('goodreadsStyleCollection.ts') && process.argv[2]) {
  const counts = await writeGoodreadsStyleCollection(process.argv[2], { rows: Number(process.argv[3] ?? 30_000) });
  console.log(JSON.stringify(counts));
}
