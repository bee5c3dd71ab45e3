import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config.js';
import { startServer } from '../src/index.js';
import { createTestDatabase } from './support/testDatabase.js';

describe('startServer from a configuration', () => {
  it('opens and migrates the database itself, serves, and closes what it opened', async () => {
    const database = await createTestDatabase();
    try {
      const server = await startServer({ config: parseConfig({ DATABASE_URL: database.url, PORT: '0' }) });
      const issued = await server.operator.createKey({ client: 'Config start', plan: 'starter' });
      const answer = await fetch(`${server.url}/v1/quotes-usage`, { headers: { 'X-API-Key': issued.key } });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('application/json');
      await server.close();
      expect(server.database.pool.ending || server.database.pool.ended).toBe(true);
    } finally {
      await database.drop();
    }
  });

  it('names a bad variable instead of starting', () => {
    expect(() => parseConfig({ PORT: 'eighty' })).toThrow(/PORT/);
  });
});
