import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';

/** A fresh migrated database and an empty folder under the temporary folder, for one test file. */
export async function databaseAndFolder(prefix: string): Promise<{ database: TestDatabase; directory: string }> {
  return { database: await createTestDatabase(), directory: await mkdtemp(join(tmpdir(), prefix)) };
}

/** Writes `lines` as the file `name` in `directory`; its path. */
export async function fileOfLines(directory: string, name: string, lines: readonly string[]): Promise<string> {
  const file = join(directory, name);
  await writeFile(file, lines.join('\n'));
  return file;
}
