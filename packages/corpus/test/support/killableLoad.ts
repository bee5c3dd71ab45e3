// Child process for the atomic-replace test: streams an endless corpus into replaceCorpus and
// reports its progress on stdout, so the test can SIGKILL it in the middle of the COPY.
import { generateCorpus, replaceCorpus } from '../../src/index.js';
import { connectDatabase } from '@quotes/database';

const url = process.argv[2];
if (!url) throw new Error('usage: killableLoad.ts DATABASE_URL');
const handle = connectDatabase(url);
await replaceCorpus(
  handle,
  generateCorpus({ size: 50_000_000, seed: 99 }),
  { source: 'never finished', seed: 99 },
  {
    onProgress: ({ phase, rows }) => process.stdout.write(`${phase} ${rows}\n`),
  },
);
process.stdout.write('finished\n');
await handle.close();
