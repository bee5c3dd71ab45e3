import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { type AdminCli, buildAdminCli, expectOneLineError, keysCreate } from '../support/adminProcess.js';

let cli: AdminCli;
let database: TestDatabase;
let dataDir: string;

beforeAll(async () => {
  [cli, database, dataDir] = await Promise.all([
    buildAdminCli(),
    createTestDatabase(),
    mkdtemp(join(tmpdir(), 'quotes-audit-test-')),
  ]);
});
afterAll(async () => {
  await database?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** The CLI as an operator runs it; mail goes to the outbox under a directory of the test's own. */
const admin = (...args: string[]) =>
  cli.run({ DATABASE_URL: database.url, DATA_DIR: dataDir, SMTP_URL: '', CORPUS_SIZE: '200' }, ...args);

async function ok(...args: string[]): Promise<string> {
  const run = await admin(...args);
  // Corpus loads report progress on stderr; any error would be a quotes-admin: line.
  expect(run.stderr).not.toContain('quotes-admin:');
  expect(run.code, run.stderr).toBe(0);
  return run.stdout;
}

interface Entry {
  id: string;
  at: string;
  actor: string;
  action: string;
  target: string;
  keyId: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  reason: string | null;
}

const auditList = async (...args: string[]) => JSON.parse(await ok('audit', 'list', '--json', ...args)) as Entry[];

describe('the audit trail through quotes-admin', { timeout: 180_000 }, () => {
  it('records every operator action with actor, target, before, after and reason, and no secret', async () => {
    const started = new Date(Date.now() - 1000).toISOString();
    const issued = JSON.parse(
      await ok(
        ...keysCreate('Audited Ltd', 'starter'),
        '--email',
        'ops@audited.example',
        '--json',
        '--reason',
        'signed order 17',
      ),
    ) as { id: string; key: string };
    const id = issued.id;
    await ok('keys', 'set-origins', id, 'https://app.audited.example', '--reason', 'their web app');
    await ok('keys', 'change-plan', id, '--plan', 'professional', '--reason', 'upgrade', '--no-send');
    await ok('keys', 'renew', id, '--until', '2099-01-31', '--no-send');
    const rolled = JSON.parse(await ok('keys', 'roll', id, '--json', '--reason', 'leaked in a log')) as { key: string };
    await ok('keys', 'revoke', '--category', 'other', id, '--reason', 'contract ended');
    const other = JSON.parse(
      await ok(...keysCreate('Second Co', 'trial'), '--email', 'a@second.example', '--json'),
    ) as {
      id: string;
    };
    await ok('keys', 'revoke', '--category', 'other', '--client', 'Second Co', '--reason', 'abuse');
    const notice = join(dataDir, 'notice.txt');
    await writeFile(notice, 'The terms change on 1 January.\n');
    await ok(...keysCreate('Third', 'starter'), '--email', 'c@third.example');
    await ok('notify', 'terms', '--subject', 'New terms', '--file', notice, '--reason', 'legal review');
    await ok('corpus', 'generate', '--size', '200', '--yes');
    // Written to a file, not loaded: nothing to record; then loaded by import.
    const file = join(dataDir, 'quotes.jsonl');
    await ok('corpus', 'generate', '--size', '120', '--output', file);
    await ok('corpus', 'import', file, '--mode', 'replace', '--yes');

    const entries = await auditList('--since', started);
    const actor = `os:${userInfo().username}`;
    expect(entries.map((entry) => entry.action)).toEqual([
      'keys create',
      'keys set-origins',
      'keys change-plan',
      'keys renew',
      'keys roll',
      'keys revoke',
      'keys create',
      'keys revoke',
      'keys create',
      'notify terms',
      'corpus generate',
      'corpus import',
    ]);
    for (const entry of entries) expect(entry.actor).toBe(actor);

    const ofKey = await auditList('--key', id);
    expect(ofKey.map((entry) => [entry.action, entry.reason])).toEqual([
      ['keys create', 'signed order 17'],
      ['keys set-origins', 'their web app'],
      ['keys change-plan', 'upgrade'],
      ['keys renew', null],
      ['keys roll', 'leaked in a log'],
      ['keys revoke', 'contract ended'],
    ]);
    const [create, origins, plan, renew, roll, revoke] = ofKey;
    expect(create!.before).toBeNull();
    expect(create!.after).toMatchObject({ id, client: 'Audited Ltd', plan: 'starter', state: 'active' });
    expect(origins!.before).toMatchObject({ allowedOrigins: [] });
    expect(origins!.after).toMatchObject({ allowedOrigins: ['https://app.audited.example'] });
    expect([plan!.before?.plan, plan!.after?.plan]).toEqual(['starter', 'professional']);
    expect(renew!.after?.expiresAt).toBe('2099-01-31T23:59:59Z');
    expect(roll!.before?.prefix).not.toBe(roll!.after?.prefix);
    expect([revoke!.before?.state, revoke!.after?.state]).toEqual(['active', 'revoked']);
    expect(entries.find((entry) => entry.keyId === other.id && entry.action === 'keys revoke')?.reason).toBe('abuse');
    const notify = entries.find((entry) => entry.action === 'notify terms')!;
    expect(notify.after).toMatchObject({ subject: 'New terms', sent: 1, of: 1, to: ['c@third.example'] });
    expect(notify.reason).toBe('legal review');
    const corpus = entries.find((entry) => entry.action === 'corpus generate')!;
    expect(corpus.after).toMatchObject({ size: 200 });
    const imported = entries.find((entry) => entry.action === 'corpus import')!;
    expect(imported.before).toMatchObject({ size: 200 });
    expect(imported.after).toMatchObject({ size: 120, arguments: [file] });

    // Never a secret: neither key, nor its hash, anywhere in the audit.
    const everything = JSON.stringify(entries);
    for (const key of [issued.key, rolled.key]) expect(everything).not.toContain(key.slice(3));
    expect(everything).not.toMatch(/hash/i);

    // The table for people: one sentence an action, the actor named, nothing cut.
    const table = await ok('audit', 'list', '--key', id);
    const operator = `The operator ${userInfo().username} (command line)`;
    const sentences = table
      .trimEnd()
      .split('\n')
      .slice(2)
      .map((line) => line.replace(/^\S+\s+/, '').trimEnd());
    expect(sentences).toEqual([
      `${operator} created key ${id} (Audited Ltd) on the starter plan for ops@audited.example, with no expiry. Reason: “signed order 17”.`,
      `${operator} set the browser origins of key ${id} (Audited Ltd) to https://app.audited.example (they were none). Reason: “their web app”.`,
      `${operator} moved key ${id} (Audited Ltd) from the starter plan to the professional plan. Reason: “upgrade”.`,
      `${operator} renewed key ${id} (Audited Ltd): valid until 2099-01-31T23:59:59Z (end of that day, UTC) (it had no expiry).`,
      `${operator} gave key ${id} (Audited Ltd) a new secret; the previous one was refused at once. Reason: “leaked in a log”.`,
      `${operator} revoked key ${id} (Audited Ltd) (category: other). Reason: “contract ended”.`,
    ]);
    expect(await auditList('--since', '2099-01-01')).toEqual([]);
  });

  it('is append-only in the database: UPDATE, DELETE and TRUNCATE are refused', async () => {
    await ok(...keysCreate('Append Only', 'starter'));
    for (const statement of [
      "UPDATE operator_audit SET reason = 'rewritten'",
      'DELETE FROM operator_audit',
      'TRUNCATE operator_audit',
    ])
      await expect(database.pool.query(statement)).rejects.toThrow(/append-only/);
    const { rows } = await database.pool.query<{ count: number }>('SELECT count(*)::int AS count FROM operator_audit');
    expect(rows[0]!.count).toBeGreaterThan(0);
  });

  it('refuses bad options in one line', async () => {
    expectOneLineError(await admin('audit', 'list', '--since', 'yesterday'), /--since/, expect);
    expectOneLineError(await admin('audit', 'list', '--limit', '0'), /--limit/, expect);
  });
});
