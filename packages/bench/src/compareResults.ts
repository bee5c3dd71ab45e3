import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { BenchReport } from './report.js';
import { compareRuns, comparisonTable } from './runComparison.js';

const fail = (message: string) => {
  process.stderr.write(`compare-results: ${message}\n`);
  return 2;
};

/**
 * `npm run compare-results -- FIRST.json SECOND.json [--tolerance 0.05]`: every ratio to the floor
 * of two runs side by side; exits 1 when one is further apart than the tolerance.
 */
async function main(): Promise<number> {
  let parsed: { values: { tolerance?: string }; positionals: string[] };
  try {
    parsed = parseArgs({ allowPositionals: true, options: { tolerance: { type: 'string', default: '0.05' } } });
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
  const tolerance = Number(parsed.values.tolerance);
  const [firstPath, secondPath, ...rest] = parsed.positionals;
  if (!firstPath || !secondPath || rest.length > 0 || !Number.isFinite(tolerance) || tolerance < 0)
    return fail('give two results/latest.json files and a --tolerance of 0 or more');
  const read = async (path: string) => JSON.parse(await readFile(path, 'utf8')) as BenchReport;
  let reports: [BenchReport, BenchReport];
  try {
    reports = [await read(firstPath), await read(secondPath)];
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
  const compared = compareRuns(...reports);
  process.stdout.write(comparisonTable(compared, tolerance));
  const apart = compared.filter((c) => c.difference !== null && c.difference > tolerance + 1e-9);
  process.stdout.write(
    apart.length === 0
      ? `every ratio within ${tolerance}\n`
      : `${apart.length} of ${compared.length} ratios further apart than ${tolerance}\n`,
  );
  return apart.length === 0 ? 0 : 1;
}

process.exitCode = await main();
