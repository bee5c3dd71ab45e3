import { cloneContract } from '@quotes/contract';
import addFormats from 'ajv-formats';
import { type AjvCustomizer, type Document, OpenAPIBackend, OpenAPIValidator } from 'openapi-backend';

let initialised: Promise<OpenAPIBackend> | undefined;

/**
 * openapi-backend initialised on the contract, as the routing uses it (and its test compares
 * with). One per process, shared: its init (the definition validated and dereferenced) is half a
 * second of CPU, and a server's routing and its key-request form both read it. Callers only read
 * it (operations, compiled validators, the router); validation goes through `api.validator`,
 * never `handleRequest`.
 */
export function contractBackend(): Promise<OpenAPIBackend> {
  initialised ??= initialise().catch((error: unknown) => {
    initialised = undefined;
    throw error;
  });
  return initialised;
}

const ajvSettings = {
  coerceTypes: true,
  ajvOpts: { allErrors: true },
  customizeAjv: ((ajv) => {
    addFormats.default(ajv);
    return ajv;
  }) satisfies AjvCustomizer,
};

async function initialise(): Promise<OpenAPIBackend> {
  // The definition validated and dereferenced in full (strict), but no validator built in init:
  // the library's own builds every request and response validator of every operation at once.
  const api = new OpenAPIBackend({ definition: cloneContract() as unknown as Document, strict: true, validate: false });
  await api.init();
  // Each validator compiled when first asked for: a server asks for the request validators of
  // five operations and never for a response's, half a second of CPU less at each start.
  api.validator = new OpenAPIValidator({
    definition: api.definition,
    router: api.router,
    lazyCompileValidators: true,
    ...ajvSettings,
  });
  return api;
}
