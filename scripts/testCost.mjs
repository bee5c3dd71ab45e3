// The suite's cost, printed at the end of `npm test`: each package's test time and the slowest
// test files, from what scripts/testCostReporter.mjs wrote during this run.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = join(import.meta.dirname, '..', '.test-cost');
const runs = readdirSync(dir)
  .filter((name) => name.endsWith('.json'))
  .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')))
  .sort((a, b) => b.wallMs - a.wallMs);
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`.padStart(8);
const total = runs.reduce((sum, run) => sum + run.wallMs, 0);
console.log(`\nTest time per package (${seconds(total).trim()} in all):`);
for (const run of runs) console.log(`${seconds(run.wallMs)}  ${run.package}`);
const files = runs.flatMap((run) => run.files).sort((a, b) => b.ms - a.ms);
console.log('\nSlowest test files:');
for (const file of files.slice(0, 15)) console.log(`${seconds(file.ms)}  ${file.file}`);
