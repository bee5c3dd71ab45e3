import { cloneContract } from '@quotes/contract';
import addFormats from 'ajv-formats';
import { type Document, OpenAPIBackend } from 'openapi-backend';

/** openapi-backend initialised on the contract, as the routing uses it (and its test compares with). */
export async function contractBackend(): Promise<OpenAPIBackend> {
  const api = new OpenAPIBackend({
    definition: cloneContract() as unknown as Document,
    strict: true,
    coerceTypes: true,
    ajvOpts: { allErrors: true },
    customizeAjv: (ajv) => {
      addFormats.default(ajv);
      return ajv;
    },
  });
  await api.init();
  return api;
}
