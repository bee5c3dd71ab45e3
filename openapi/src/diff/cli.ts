// contract-diff: compares the contract with an earlier version of it and exits 1 on a change that
// breaks its users (0: none; 2: the comparison could not be made).
import { relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { contractPath } from '../contractDocument.js';
import { changeReport } from './changeReport.js';
import { compareContracts } from './contractChanges.js';
import { type ContractSource, ContractSourceError, fromFile, fromGitRef, latestRelease } from './contractSources.js';

const usage =
  'usage: contract:diff -- (--base <git ref> | --release) [--contract <file>]\n' +
  '  --base <ref>      compare with the contract committed at that ref (a tag, branch or commit)\n' +
  '  --release         compare with the newest released copy, openapi/releases/<version>.yaml\n' +
  '  --contract <file> the contract to check (default: openapi/quotes.yaml)';

function main(argv: string[]): number {
  const { values } = parseArgs({
    args: argv,
    options: {
      base: { type: 'string' },
      release: { type: 'boolean' },
      contract: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(usage);
    return 0;
  }
  if ((values.base === undefined) === !values.release)
    throw new ContractSourceError('give --base <git ref> or --release');
  // npm runs a workspace script in the package folder; a path the caller typed is relative to theirs.
  const callerFolder = process.env.INIT_CWD ?? process.cwd();
  const file = values.contract ? resolve(callerFolder, values.contract) : contractPath;
  const head = fromFile(file, relative(callerFolder, file));
  const base: ContractSource = values.base === undefined ? latestRelease(file) : fromGitRef(file, values.base);
  const changes = compareContracts(base.document, head.document);
  const breaking = changes.filter((change) => change.type === 'breaking').length;
  console.log(`${head.label} against ${base.label}: ${changes.length} change(s), ${breaking} breaking`);
  if (changes.length > 0) console.log(changeReport(changes, base.document, head.document));
  if (breaking > 0)
    console.log('Breaking changes need a new major version (new /v2 operations beside /v1): see openapi/README.md.');
  return breaking > 0 ? 1 : 0;
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof ContractSourceError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')))
    throw error;
  console.error(`contract-diff: ${(error as Error).message}`);
  if (!(error instanceof ContractSourceError)) console.error(usage);
  process.exitCode = 2;
}
