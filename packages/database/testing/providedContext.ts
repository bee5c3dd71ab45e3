/** What the global setup (globalDatabase.ts) provides to every test file of the run. */
declare module 'vitest' {
  export interface ProvidedContext {
    adminDatabaseUrl: string;
    /** A database migrated once for the run, which each test file's database is copied from. */
    templateDatabase: string;
  }
}

export {};
