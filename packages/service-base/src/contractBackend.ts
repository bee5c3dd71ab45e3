import { cloneContract } from '@quotes/contract';
import addFormats from 'ajv-formats';
import { type Document, OpenAPIBackend } from 'openapi-backend';

let initialised: Promise<OpenAPIBackend> | undefined;

/**
 * openapi-backend initialised on the contract, as the routing uses it (and its test compares
 * with). One per process, shared: its init (the definition's validation and every validator
 * compiled) is about a second of CPU, and a server's routing and its key-request form both read
 * it. Callers only read it (operations, compiled validators, the router).
 */
export function contractBackend(): Promise<OpenAPIBackend> {
  initialised ??= initialise().catch((error: unknown) => {
    initialised = undefined;
    throw error;
  });
  return initialised;
}

async function initialise(): Promise<OpenAPIBackend> {
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
