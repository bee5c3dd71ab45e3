import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { cloneContract, contractPath } from '../src/index.js';
import { compareContracts } from '../src/diff/contractChanges.js';

const repositoryRoot = fileURLToPath(new URL('../..', import.meta.url));

type Node = Record<string, unknown>;
type Edit = (contract: Node) => void;

/** The object at `keys` in a parsed contract. */
const node = (document: Node, ...keys: string[]) => keys.reduce((at, key) => at[key] as Node, document);

function changed(edit: Edit) {
  const head = cloneContract() as unknown as Node;
  edit(head);
  return compareContracts(cloneContract(), head);
}
const breaking = (edit: Edit) => changed(edit).filter((change) => change.type === 'breaking');

describe('compareContracts', () => {
  it('finds nothing in an unchanged contract', () => {
    expect(changed(() => {})).toEqual([]);
  });

  it('passes an added optional response field and an added operation', () => {
    const changes = changed((contract) => {
      node(contract, 'components', 'schemas', 'QuotePage', 'properties').next_offset = { type: 'integer', minimum: 0 };
      const paths = node(contract, 'paths');
      paths['/v1/quotes-random-pair'] = structuredClone(paths['/v1/quotes-random']);
    });
    expect(changes.map(({ type }) => type)).toEqual(['non-breaking', 'non-breaking']);
  });

  it('fails a new required parameter', () => {
    const found = breaking((contract) => {
      const parameters = node(contract, 'paths', '/v1/quotes-random', 'get').parameters as unknown[];
      parameters.push({ name: 'language', in: 'query', required: true, schema: { type: 'string' } });
    });
    expect(found.map(({ action, path }) => [action, path.at(-2)])).toEqual([['add', 'parameters']]);
  });

  it('fails a removed enum value, also where only responses carry the enum', () => {
    const found = breaking((contract) => {
      const mood = node(contract, 'components', 'schemas', 'Mood');
      mood.enum = (mood.enum as string[]).filter((value) => value !== 'dark');
    });
    expect(found.length).toBeGreaterThan(0);
    expect(found.every(({ before, reason }) => before === 'dark' && reason === 'a removed enum value')).toBe(true);
  });

  it('passes a new problem type and fails a new category, as the compatibility promise says', () => {
    const problem = changed((contract) => {
      (node(contract, 'components', 'schemas', 'ProblemType').enum as string[]).push('urn:quotes:problem:new-kind');
    });
    expect(problem.filter(({ type }) => type === 'breaking')).toEqual([]);
    expect(problem.length).toBeGreaterThan(0);
    const category = breaking((contract) => {
      (node(contract, 'components', 'schemas', 'Category').enum as string[]).push('Sleep & Dreams');
    });
    expect(category.length).toBeGreaterThan(0);
  });

  it('fails a removed operation, response or response field', () => {
    expect(breaking((contract) => delete node(contract, 'paths')['/v1/quotes-usage'])).toHaveLength(1);
    expect(
      breaking((contract) => delete node(contract, 'paths', '/v1/quotes-random', 'get', 'responses')['404']),
    ).toHaveLength(1);
    const field = breaking((contract) => delete node(contract, 'components', 'schemas', 'Usage', 'properties').resets);
    expect(field.map(({ path }) => path.at(-1))).toEqual(['resets']);
  });

  it('fails a narrower parameter and a changed response type', () => {
    const narrower = breaking((contract) => {
      node(contract, 'components', 'parameters', 'CategoryFilter', 'schema').maxLength = 20;
    });
    expect(narrower.map(({ path }) => path.at(-1))).toEqual(['maxLength', 'maxLength']);
    const retyped = breaking((contract) => {
      node(contract, 'components', 'schemas', 'QuotePage', 'properties', 'total').type = 'string';
    });
    expect(retyped.map(({ reason }) => reason)).toEqual(['a changed type, in a request or a response']);
  });
});

describe('npm run contract:diff', () => {
  let folder: string;
  let copy: string;

  beforeAll(() => {
    // A repository of its own holding a committed copy of the contract, so HEAD is that copy.
    folder = mkdtempSync(join(tmpdir(), 'contract-diff-'));
    copy = join(folder, 'quotes.yaml');
    writeFileSync(copy, readFileSync(contractPath, 'utf8'));
    const git = (...args: string[]) => execFileSync('git', ['-C', folder, ...args], { stdio: 'pipe' });
    git('init', '--quiet');
    git('add', 'quotes.yaml');
    git('-c', 'user.name=test', '-c', 'user.email=test@example.test', 'commit', '--quiet', '-m', 'contract');
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  const run = (...args: string[]) =>
    spawnSync('npm', ['run', '--silent', 'contract:diff', '--', '--contract', copy, ...args], {
      cwd: repositoryRoot,
      encoding: 'utf8',
      timeout: 60_000,
    });

  it('passes an unchanged contract', () => {
    writeFileSync(copy, readFileSync(contractPath, 'utf8'));
    const result = run('--base', 'HEAD');
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('0 breaking');
    expect(result.status).toBe(0);
  });

  it('fails, naming the field, when has_more is removed', () => {
    const document = parse(readFileSync(contractPath, 'utf8'));
    const page = document.components.schemas.QuotePage;
    delete page.properties.has_more;
    page.required = page.required.filter((name: string) => name !== 'has_more');
    writeFileSync(copy, stringify(document));
    const result = run('--base', 'HEAD');
    expect(result.stdout).toMatch(/^ {2}removed has_more in the application\/json body$/m);
    expect(result.stdout).toContain('in GET /v1/quotes-filter (200)');
    expect(result.status).toBe(1);
  });

  it('says in one line why it cannot compare, and exits 2', () => {
    const result = run('--base', 'no-such-ref');
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^contract-diff: cannot read quotes\.yaml at no-such-ref: fatal: /),
    ]);
    expect(result.status).toBe(2);
  });
});
