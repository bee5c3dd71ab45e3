import type { DatabaseHandle } from '@quotes/database';
import { defaultCorpusSeed, defaultCorpusSize } from './defaultCorpusSettings.js';

export const generatedSource = 'generated';

/**
 * Loads the generated default corpus when the quotes table is empty, so a fresh `npm start`
 * serves a full-size corpus (`size` and `seed` unset: the defaults, CORPUS.md). Safe when several
 * processes start at once: the emptiness check is made again under the load lock. Returns true
 * when it loaded.
 */
export async function ensureDefaultCorpus(
  handle: DatabaseHandle,
  given: { size?: number | undefined; seed?: number | undefined; log?: (line: string) => void },
): Promise<boolean> {
  const options = { ...given, size: given.size ?? defaultCorpusSize, seed: given.seed ?? defaultCorpusSeed };
  if (options.size <= 0) return false;
  const existing = await handle.db.selectFrom('quotes').select('id').limit(1).executeTakeFirst();
  if (existing) return false;
  // Only a fresh database needs the generator and the loader (85 modules, their word banks built
  // at import): every other start of a server checks one row and goes on without them.
  const [{ generateCorpus }, { replaceEmptyCorpus }] = await Promise.all([
    import('./generator/generateCorpus.js'),
    import('./loadCorpus.js'),
  ]);
  const log = options.log ?? (() => undefined);
  log(
    `corpus: the quotes table is empty; generating and loading ${options.size.toLocaleString('en-US')} quotes (seed ${options.seed})`,
  );
  const report = await replaceEmptyCorpus(handle, generateCorpus({ size: options.size, seed: options.seed }), {
    source: generatedSource,
    seed: options.seed,
  });
  if (!report) return false;
  log(
    `corpus: loaded ${report.total.toLocaleString('en-US')} quotes in ${report.seconds.toFixed(1)} s (version ${report.version})`,
  );
  return true;
}
