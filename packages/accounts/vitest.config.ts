import { databaseTestConfig } from '@quotes/database/testing/vitest';
import { defineConfig } from 'vitest/config';

export default defineConfig(databaseTestConfig);
