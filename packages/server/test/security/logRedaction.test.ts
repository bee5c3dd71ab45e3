import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { loggedUrl, loggedUrlLength } from '../../src/http/loggedUrl.js';
import { displayPrefix, generateApiKey, randomBase62 } from '@quotes/accounts';
import { createLogger } from '@quotes/service-base';
import { redactLogLine, redactSecrets } from '@quotes/service-base';
import { createTestDatabase } from '@quotes/database/testing';

const key = generateApiKey();

/** A logger writing JSON lines into an array, as the server's does. */
function capture(pretty = false): { log: ReturnType<typeof createLogger>; lines: string[] } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return { log: createLogger({ level: 'trace', pretty, destination }), lines };
}

describe('the log redaction rule', () => {
  it('redacts keys, whole or cut, plain or percent-encoded, and tokens after an authorization scheme', () => {
    const cases = [
      key,
      `x-api-key: ${key}`,
      key.slice(0, 20),
      key.replace('_', '%5F'),
      `${key}trailing`,
      `Bearer ${randomBase62(30)}`,
      `authorization=Basic%20${Buffer.from('user:password').toString('base64')}`,
    ];
    for (const text of cases) {
      const redacted = redactSecrets(text);
      expect(redacted, text).toContain('[redacted]');
      expect(redacted, text).not.toMatch(/qk(_|%5f)[A-Za-z0-9]{9}/i);
    }
    expect(redactSecrets(`Bearer ${key}`)).toBe('Bearer [redacted]');
  });

  it('redacts token-shaped text without a prefix: a key without it, a link token, the console sign-in token', () => {
    for (let round = 0; round < 200; round++) {
      for (const token of [randomBase62(32), randomBytes(32).toString('base64url')]) {
        expect(redactSecrets(`see ${token}.`)).toBe('see [redacted].');
      }
    }
    // A key without its prefix: random text slips through about once in 100,000 (logRedaction.ts).
    const slipped = Array.from({ length: 2000 }, () => randomBase62(24)).filter((bare) => redactSecrets(bare) === bare);
    expect(slipped.length).toBeLessThanOrEqual(1);
  });

  it('redacts e-mail addresses, plain or percent-encoded', () => {
    expect(redactSecrets('from ada.lovelace+keys@example.org today')).toBe('from [redacted] today');
    expect(redactSecrets('email=ada%40example.org&x=1')).toBe('email=[redacted]&x=1');
  });

  it('keeps what is not secret: request ids, display prefixes, key ids, names in code, host names, problem types', () => {
    const kept = [
      '76e1421b-7c5d-4794-9ae3-b241da32ad74',
      `prefix ${displayPrefix(key)}`,
      'k_Ab3dEf6hIj9k',
      'at process.processTicksAndRejections (node:internal/process/task_queues:105:5)',
      'at createKeyRequestService (file:///srv/quotes/packages/server/dist/keyRequests/keyRequestService.js:12:3)',
      'quotes-server-7d9f8b6c5d-x2k4j',
      'urn:quotes:problem:too-many-key-requests',
      'GET /v1/quotes-filter?category=love&mood=hopeful&limit=10',
      'Basic plan',
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
    ];
    for (const text of kept) expect(redactSecrets(text)).toBe(text);
  });

  it('keeps the migrations’ names the start-up log lists', async () => {
    const database = await createTestDatabase();
    try {
      const { rows } = await database.pool.query<{ name: string }>('SELECT name FROM kysely_migration ORDER BY name');
      const names = rows.map((row) => row.name);
      expect(names[0]).toBe('20261123T0900_plans_keys_usage');
      const { log, lines } = capture();
      // As main.ts logs them.
      log.info({ migrations: names }, 'applied migrations');
      expect((JSON.parse(lines[0]!) as { migrations: string[] }).migrations).toEqual(names);
    } finally {
      await database.drop();
    }
  });

  it('stays linear on long input without a match (16 KB of one character)', () => {
    const started = performance.now();
    for (const text of ['a'.repeat(16_384), `${'a.'.repeat(8192)}@`, `qk${'a%'.repeat(8192)}`]) {
      redactSecrets(text);
      loggedUrl(`/${text}?q=${text}`);
    }
    expect(performance.now() - started).toBeLessThan(250);
  });

  it('keeps a JSON line valid when a secret sits next to an escape', () => {
    const line = JSON.stringify({ msg: `failed:\n${key}\t"quoted ada@example.org"`, n: 1 });
    const redacted = redactLogLine(line);
    expect(JSON.parse(redacted)).toEqual({ msg: 'failed:\n[redacted]\t"quoted [redacted]"', n: 1 });
  });
});

describe('the URL the request log writes', () => {
  /** The URL as the line holds it: loggedUrl's pieces, then the line's rule, as requestLog and log.ts apply them. */
  const written = (url: string) => JSON.parse(redactLogLine(JSON.stringify({ url: loggedUrl(url) }))).url as string;

  it('redacts a credential-named parameter whatever its value, and any secret in a path segment or a value', () => {
    expect(written(`/v1/quotes-random?api_key=${key}`)).toBe('/v1/quotes-random?api_key=[redacted]');
    expect(written('/keys/confirm?token=short')).toBe('/keys/confirm?token=[redacted]');
    expect(written(`/v1/quotes-filter?category=love&mood=${key}`)).toBe(
      '/v1/quotes-filter?category=love&mood=[redacted]',
    );
    expect(written(`/v1/quotes-filter?category=love%20${key}`)).toBe('/v1/quotes-filter?category=[redacted]');
    expect(written(`/v1/quotes-filter?category=love+${key}`)).toBe('/v1/quotes-filter?category=love+[redacted]');
    expect(written(`/v1/${key}/x`)).toBe('/v1/[redacted]/x');
    const everyCharacterEncoded = [...key].map((char) => `%${char.charCodeAt(0).toString(16)}`).join('');
    expect(written(`/v1/quotes-random?q=${everyCharacterEncoded}`)).toBe('/v1/quotes-random?q=[redacted]');
    expect(written(`/v1/quotes-random?q=${encodeURIComponent(encodeURIComponent(key))}`)).toBe(
      '/v1/quotes-random?q=[redacted]',
    );
    expect(written('/v1/quotes-random?contact=ada%40example.org&bad=%E0%A4%A')).toBe(
      '/v1/quotes-random?contact=[redacted]&bad=%E0%A4%A',
    );
  });

  it('keeps an ordinary URL as it came, and bounds a long one', () => {
    for (const url of ['/v1/quotes-filter?category=love&mood=hopeful&limit=10', '/v1/quotes-random', '/healthz'])
      expect(written(url)).toBe(url);
    expect(loggedUrl(`/v1/${'a/'.repeat(5000)}`)).toHaveLength(loggedUrlLength + 1);
  });
});

describe('errors in log lines', () => {
  it('keep their type, message, code and stack; never a body, a client, a row or an envelope', () => {
    const { log, lines } = capture();
    const bodyError = Object.assign(new Error('too many parameters'), {
      type: 'parameters.too.many',
      status: 413,
      body: 'email=ada%40example.org&name=Ada+Quietname',
    });
    const databaseError = Object.assign(new Error('duplicate key value violates unique constraint "x"'), {
      code: '23505',
      detail: 'Key (email)=(ada@example.org) already exists.',
      constraint: 'x',
      client: { password: 'hunter2' },
    });
    const mailError = Object.assign(new Error('Can not send mail'), { envelope: { to: ['Ada Quietname'] } });
    log.error({ err: bodyError }, 'one');
    log.error({ err: databaseError }, 'two');
    log.error({ cause: mailError }, 'three');
    log.error(new AggregateError([bodyError, databaseError], 'both'));
    const text = lines.join('\n');
    for (const leaked of ['Quietname', 'ada', 'hunter2', 'Key (email)']) expect(text).not.toContain(leaked);
    expect(JSON.parse(lines[0]!).err).toMatchObject({ type: 'Error', message: 'too many parameters', status: 413 });
    expect(JSON.parse(lines[1]!).err).toMatchObject({ code: '23505', constraint: 'x', stack: expect.any(String) });
    expect(JSON.parse(lines[2]!).cause).toMatchObject({ message: 'Can not send mail' });
  });

  it('leave out the text a JSON parse error quotes (V8 puts the body into the message)', () => {
    const { log, lines } = capture();
    let parseError: unknown;
    try {
      JSON.parse('Ada Quietname,\n ada@example.org');
    } catch (error) {
      parseError = error;
    }
    expect(String((parseError as Error).message)).toContain('Quiet');
    log.error({ err: parseError }, 'parse');
    expect(lines.join('\n')).not.toContain('Quiet');
    expect(JSON.parse(lines[0]!).err.message).toMatch(/is not valid JSON/);
  });

  it('on a terminal too: the pretty line is written from the redacted one', () => {
    const { log, lines } = capture(true);
    log.info({ req: { method: 'GET', url: `/v1/x?k=${key}` }, res: { statusCode: 200 }, responseTime: 1 }, 'r');
    log.warn(`a key ${key} and ada@example.org in a message`);
    expect(lines.join('\n')).not.toContain(key.slice(3));
    expect(lines.join('\n')).not.toContain('ada@');
  });
});
