import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { parse } from 'yaml';

/** A version of the contract to compare, and how to name it to a reader. */
export interface ContractSource {
  label: string;
  document: { openapi?: unknown; info?: { version?: unknown } };
}

/** A contract that cannot be read or is not OpenAPI 3.0: the message is one line for stderr. */
export class ContractSourceError extends Error {}

function parsed(text: string, label: string): ContractSource {
  let document: ContractSource['document'];
  try {
    document = parse(text);
  } catch (error) {
    throw new ContractSourceError(`${label} is not YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  if (typeof document?.openapi !== 'string' || !document.openapi.startsWith('3.0.'))
    throw new ContractSourceError(`${label} is not an OpenAPI 3.0 document`);
  return { label: `${label} (${document.info?.version})`, document };
}

export function fromFile(file: string, label = file): ContractSource {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ContractSourceError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code}`);
  }
  return parsed(text, label);
}

/** The same file as committed at `ref` in the git repository that holds it. */
export function fromGitRef(file: string, ref: string): ContractSource {
  let text: string;
  try {
    text = execFileSync('git', ['show', `${ref}:./${basename(file)}`], {
      cwd: dirname(file),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    const said = String((error as { stderr?: string }).stderr ?? '')
      .trim()
      .split('\n')[0];
    throw new ContractSourceError(`cannot read ${basename(file)} at ${ref}: ${said || (error as Error).message}`);
  }
  return parsed(text, `${basename(file)} at ${ref}`);
}

const versionParts = (name: string) =>
  name
    .replace(/\.yaml$/, '')
    .split('.')
    .map(Number);

/**
 * The newest released copy, `releases/<info.version>.yaml` beside the contract: a clone without
 * tags still has it.
 */
export function latestRelease(file: string): ContractSource {
  const folder = join(dirname(file), 'releases');
  let names: string[];
  try {
    names = readdirSync(folder).filter((name) => /^\d+\.\d+\.\d+\.yaml$/.test(name));
  } catch {
    names = [];
  }
  const newest = names
    .sort((a, b) => {
      const [x, y] = [versionParts(a), versionParts(b)];
      return x[0]! - y[0]! || x[1]! - y[1]! || x[2]! - y[2]!;
    })
    .at(-1);
  if (!newest) throw new ContractSourceError(`no released contract (X.Y.Z.yaml) in ${folder}`);
  const release = fromFile(join(folder, newest), `releases/${newest}`);
  const version = release.document.info?.version;
  if (`${version}.yaml` !== newest)
    throw new ContractSourceError(`releases/${newest} says info.version ${version}; the file name must match it`);
  return release;
}
