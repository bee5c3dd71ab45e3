import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The layer rule the README's request diagram draws: each layer imports only the layers below
 * it (http -> keys -> data -> domain). Read from the sources' import statements.
 */
const src = fileURLToPath(new URL('../src/', import.meta.url));
const forbidden: Record<string, readonly string[]> = {
  domain: ['http', 'keys', 'data', 'operator', 'cli', 'console', 'metrics'],
  data: ['http', 'keys', 'operator', 'cli', 'console', 'metrics'],
  keys: ['http', 'operator', 'cli', 'console', 'metrics'],
  // The metrics read the request path's objects on scrape; the app gets their middleware as an argument.
  http: ['operator', 'cli', 'console', 'metrics'],
};

async function sourceFiles(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The top folder of src each relative import of a file lands in. */
function importedLayers(file: string, text: string): string[] {
  const specifiers = [...text.matchAll(/\b(?:from|import)\s*\(?\s*'(\.[^']+)'/g)].map((match) => match[1]!);
  return specifiers.map((specifier) => relative(src, join(dirname(file), specifier)).split(sep)[0]!);
}

describe('the layer rule', () => {
  it('holds: domain imports no data, keys or http; data no keys or http; keys no http', async () => {
    const violations: string[] = [];
    for (const [layer, below] of Object.entries(forbidden)) {
      for (const file of await sourceFiles(join(src, layer))) {
        for (const imported of importedLayers(file, await readFile(file, 'utf8'))) {
          if (below.includes(imported)) violations.push(`${relative(src, file)} imports ${imported}/`);
        }
      }
    }
    expect(violations).toEqual([]);
  });

  it('sees a violation when there is one', () => {
    const file = join(src, 'domain', 'plans.ts');
    expect(importedLayers(file, "import { x } from '../data/apiKeys.js';")).toEqual(['data']);
    expect(importedLayers(file, "import type { y } from './calendarMonth.js';")).toEqual(['domain']);
  });
});
