import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { BenchReport } from './report.js';
import { compareRuns, comparisonTable, isApart } from './runComparison.js';

const fail = (message: string) => {
  process.stderr.write(`compare-results: ${message}\n`);
  return 2;
};

/**
 * `npm run compare-results -- FIRST.json SECOND.json [--tolerance T]`: every ratio to the floor
 * of two runs side by side; exits 1 when one is further apart than its tolerance (0.05 on
 * quotes-random, quotes-categories and the mixed traffic, 0.1 on the others; T for all).
 */
async function main(): Promise<number> {
  let parsed: { values: { tolerance?: string }; positionals: string[] };
  try {
    parsed = parseArgs({ allowPositionals: true, options: { tolerance: { type: 'string' } } });
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
  const uniform = parsed.values.tolerance === undefined ? undefined : Number(parsed.values.tolerance);
  const [firstPath, secondPath, ...rest] = parsed.positionals;
  if (
    !firstPath ||
    !secondPath ||
    rest.length > 0 ||
    (uniform !== undefined && (!Number.isFinite(uniform) || uniform < 0))
  )
    return fail('give two results/latest.json files and a --tolerance of 0 or more');
  const read = async (path: string) => JSON.parse(await readFile(path, 'utf8')) as BenchReport;
  let reports: [BenchReport, BenchReport];
  try {
    reports = [await read(firstPath), await read(secondPath)];
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
  const compared = compareRuns(...reports, uniform);
  process.stdout.write(comparisonTable(compared));
  const apart = compared.filter(isApart);
  const bound = uniform === undefined ? 'their tolerance' : String(uniform);
  process.stdout.write(
    apart.length === 0
      ? `every ratio within ${bound}\n`
      : `${apart.length} of ${compared.length} ratios further apart than ${bound}\n`,
  );
  return apart.length === 0 ? 0 : 1;
}

process.exitCode = await main();
