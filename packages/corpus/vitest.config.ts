import { databaseTestConfig } from '@quotes/database/testing/vitest';

export default databaseTestConfig;
