import pg from 'pg';

/** The same server's URL, naming another database. */
export function withDatabaseName(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** One statement on a connection of its own (CREATE and DROP DATABASE run outside transactions). */
export async function adminQuery(adminUrl: string, sqlText: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sqlText);
  } finally {
    await client.end();
  }
}
