import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseHandle, EmbeddedDatabase } from '@quotes/database';
import { connectDatabase, freePort, migrateToLatest, startEmbeddedPostgres } from '@quotes/database';
import pg from 'pg';
import { loadFixtureCorpus } from './fixtureCorpus.js';

/**
 * A PostgreSQL cluster of one test file's own, for tests that stop or freeze it: the shared
 * test cluster must not stall for any other file. Its `quotes` database is migrated and holds
 * the fixture corpus.
 */
export class OwnCluster {
  private running: EmbeddedDatabase | undefined;

  private constructor(
    /** The cluster's data directory, for tests that signal its processes. */
    readonly dataDir: string,
    private readonly port: number,
    readonly database: DatabaseHandle,
    readonly url: string,
    running: EmbeddedDatabase,
  ) {
    this.running = running;
  }

  static async start(prefix: string, poolSize: number): Promise<OwnCluster> {
    const dataDir = join(await mkdtemp(join(tmpdir(), prefix)), 'data');
    const port = await freePort();
    const cluster = await OwnCluster.startAt(dataDir, port);
    const admin = new pg.Client({ connectionString: cluster.adminUrl });
    await admin.connect();
    await admin.query('CREATE DATABASE quotes');
    await admin.end();
    const database = connectDatabase(cluster.urlFor('quotes'), { poolSize });
    await migrateToLatest(database.db);
    await loadFixtureCorpus(database);
    return new OwnCluster(dataDir, port, database, cluster.urlFor('quotes'), cluster);
  }

  private static startAt(dataDir: string, port: number): Promise<EmbeddedDatabase> {
    return startEmbeddedPostgres({ dataDir, port, persistent: true, fast: true });
  }

  /** Stops PostgreSQL, keeping its data: an outage. */
  async stop(): Promise<void> {
    const cluster = this.running;
    this.running = undefined;
    await cluster?.stop();
  }

  /** Starts it again on the same port and data. */
  async restart(): Promise<void> {
    this.running ??= await OwnCluster.startAt(this.dataDir, this.port);
  }

  /** Closes the pool, stops the cluster and deletes its files. */
  async remove(): Promise<void> {
    await this.database.close();
    await this.stop();
    await rm(join(this.dataDir, '..'), { recursive: true, force: true });
  }
}
