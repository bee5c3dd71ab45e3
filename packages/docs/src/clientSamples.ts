import type { ContractDocument } from '@quotes/contract';

/**
 * The samples' `baseUrl` as written: the server `npm start` runs. The page puts the origin that
 * served it in its place (data-sample-origin tells it what to replace).
 */
export const sampleOriginPlaceholder = 'http://127.0.0.1:3000';

/** What the samples pass as `apiKey`: visibly a stand-in for the reader's own key. */
export const sampleApiKey = 'qk_YOUR_KEY';

export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

export interface ParameterObject {
  $ref?: string;
  name?: string;
  in?: string;
  example?: unknown;
  required?: boolean;
  description?: string;
  'x-filter'?: unknown;
}

export function resolveParameter(contract: ContractDocument, parameter: ParameterObject): ParameterObject {
  if (!parameter.$ref) return parameter;
  const name = parameter.$ref.replace('#/components/parameters/', '');
  const resolved = contract.components.parameters[name] as ParameterObject | undefined;
  if (!resolved) throw new Error(`the contract's ${parameter.$ref} does not exist`);
  return resolved;
}

function literal(value: unknown): string {
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new Error(`no JavaScript literal for the example ${JSON.stringify(value)}`);
}

/**
 * The arguments a sample passes: the operation's first filter (every plan allows one) and its
 * other query parameters (paging), each with the contract's own example. Headers are left to the
 * client (it sends the key and revalidates with If-None-Match itself).
 */
export function sampleArguments(
  contract: ContractDocument,
  parameters: ParameterObject[] = [],
): Record<string, unknown> {
  const chosen: Record<string, unknown> = {};
  let filterTaken = false;
  for (const parameter of parameters.map((entry) => resolveParameter(contract, entry))) {
    if (parameter.in !== 'query' || parameter.name === undefined || parameter.example === undefined) continue;
    if (parameter['x-filter'] !== undefined) {
      if (filterTaken) continue;
      filterTaken = true;
    }
    chosen[parameter.name] = parameter.example;
  }
  return chosen;
}

/**
 * The JavaScript sample of one operation: the published @quotes/client, called by operationId.
 * A counted operation goes through `withMeta`, which adds the allowance read from the headers;
 * one that is never counted (its `x-counted-statuses` is empty) sends none, so it is called plainly.
 */
export function clientSample(
  operationId: string,
  args: Record<string, unknown>,
  counted = true,
  /** An operation with a request body (the key request) is called with the body's example, and needs no key. */
  body?: Record<string, unknown>,
): string {
  const entries = Object.entries(body ?? args).map(([name, value]) => {
    if (!/^[A-Za-z_$][\w$]*$/.test(name)) throw new Error(`parameter ${name} is not a plain identifier`);
    return `${name}: ${literal(value)}`;
  });
  const call = entries.length > 0 ? `${operationId}({ ${entries.join(', ')} })` : `${operationId}()`;
  const setup = [
    "import { createQuotesClient } from '@quotes/client';",
    '',
    body
      ? `const quotes = createQuotesClient({ baseUrl: '${sampleOriginPlaceholder}' });`
      : `const quotes = createQuotesClient({ baseUrl: '${sampleOriginPlaceholder}', apiKey: '${sampleApiKey}' });`,
    '',
  ];
  const use = counted
    ? [
        '// withMeta adds the allowance headers: rateLimit is { limit, remaining, resetsAt }.',
        `const { data, rateLimit } = await quotes.withMeta.${call};`,
        'console.log(data, rateLimit);',
      ]
    : [`const data = await quotes.${call};`, 'console.log(data);'];
  return [...setup, ...use, ''].join('\n');
}
