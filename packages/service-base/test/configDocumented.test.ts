import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config.js';

// Every variable the configuration reads is documented once, as one row of the server README's
// configuration table, and that table names nothing the configuration does not read.

const root = fileURLToPath(new URL('../../../', import.meta.url));
const serverReadme = join(root, 'packages', 'server', 'README.md');
const configSource = await readFile(new URL('../src/config.ts', import.meta.url), 'utf8');

/** The keys of the object the environment schema is built from, as config.ts writes them. */
function schemaVariables(source: string): string[] {
  const start = source.indexOf('const environmentSchema');
  const end = source.indexOf('.superRefine', start);
  if (start < 0 || end < 0)
    throw new Error('config.ts no longer builds `environmentSchema` with a .superRefine after it');
  return [...source.slice(start, end).matchAll(/^ {4}([A-Z][A-Z0-9_]*):/gm)].map((match) => match[1]!);
}

/** Each row of the markdown tables in `text`: the variables (`NAME` in backticks) its first cell names. */
function tableRows(text: string): string[][] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|[\s|:-]+\|$/.test(line))
    .map((line) => [...(line.split('|')[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1]!));
}

/** The `## Configuration` section of a README, up to the next second-level heading. */
function configurationSection(readme: string): string {
  const start = readme.search(/^## Configuration$/m);
  if (start < 0) throw new Error('the server README has no "## Configuration" section');
  const next = readme.slice(start + 1).search(/^## /m);
  return next < 0 ? readme.slice(start) : readme.slice(start, start + 1 + next);
}

/** What is wrong with a configuration table against the variables read, one line each. */
function tableProblems(variables: readonly string[], rows: readonly string[][]): string[] {
  const read = new Set(variables);
  const named = rows.filter((row) => row.length > 0);
  const problems = named.filter((row) => row.length > 1).map((row) => `one row names several: ${row.join(', ')}`);
  const rowsOf = (name: string) => named.filter((row) => row.includes(name)).length;
  for (const name of variables) {
    const count = rowsOf(name);
    if (count === 0) problems.push(`${name} has no row`);
    if (count > 1) problems.push(`${name} has ${count} rows`);
  }
  for (const name of new Set(named.flat())) if (!read.has(name)) problems.push(`${name} is not read by config.ts`);
  return problems;
}

/** The markdown files of the repository, outside dependencies and build output. */
async function markdownFiles(folder: string): Promise<string[]> {
  const skipped = new Set(['node_modules', 'dist', '.git', '.data', '.turbo', 'coverage', 'test-output']);
  const found: string[] = [];
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    if (skipped.has(entry.name)) continue;
    const path = join(folder, entry.name);
    if (entry.isDirectory()) found.push(...(await markdownFiles(path)));
    else if (entry.name.endsWith('.md')) found.push(path);
  }
  return found;
}

const variables = schemaVariables(configSource);
const readme = await readFile(serverReadme, 'utf8');
const section = configurationSection(readme);

describe('the configuration table', () => {
  it('is read from the schema itself: every key parseConfig gives is found in config.ts', () => {
    expect(variables.length).toBeGreaterThanOrEqual(40);
    expect(new Set(variables).size).toBe(variables.length);
    for (const key of Object.keys(parseConfig({}))) expect(variables).toContain(key);
  });

  it('has one row for each variable config.ts reads, and none for any other', () => {
    expect(tableProblems(variables, tableRows(section))).toEqual([]);
  });

  it('is the only README table with a row for those variables', async () => {
    const elsewhere: string[] = [];
    for (const file of await markdownFiles(root)) {
      const text = await readFile(file, 'utf8');
      const rows = tableRows(file === serverReadme ? text.replace(section, '') : text);
      for (const name of rows.flat()) if (variables.includes(name)) elsewhere.push(`${relative(root, file)}: ${name}`);
    }
    expect(elsewhere).toEqual([]);
  });

  it('names what is wrong: a missing, a repeated and an unknown row', () => {
    const [first] = variables;
    const rows = variables.map((name) => [name]);
    const withoutFirst = rows.filter((row) => !row.includes(first!));
    expect(tableProblems(variables, withoutFirst)).toEqual([`${first} has no row`]);
    expect(tableProblems(variables, [...rows, [first!]])).toEqual([`${first} has 2 rows`]);
    expect(tableProblems(variables, [...rows, ['NOT_READ']])).toEqual(['NOT_READ is not read by config.ts']);
    expect(tableProblems(variables, [...withoutFirst, [first!, 'NOT_READ']])).toEqual([
      `one row names several: ${first}, NOT_READ`,
      'NOT_READ is not read by config.ts',
    ]);
  });
});
