import { describedContract, loadContract } from '@quotes/contract';
import { describe, expect, it } from 'vitest';
import { clientSample, sampleApiKey, sampleOriginPlaceholder } from '../src/clientSamples.js';
import { contractLinks, referenceDocument } from '../src/referenceDocument.js';

interface Parameter {
  $ref?: string;
  name: string;
  in: string;
  required?: boolean;
  example?: unknown;
  description?: string;
  schema: { type?: string; enum?: unknown[] };
}

interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { example?: Record<string, unknown> }> };
  'x-codeSamples'?: Array<{ lang: string; label: string; source: string }>;
}

const contract = loadContract();
const rendered = referenceDocument(describedContract());
const descriptionOf = (document: typeof contract): string =>
  (document.info as { description?: string }).description ?? '';

function operations(document: typeof contract): Operation[] {
  return Object.values(document.paths).flatMap((pathItem) => Object.values(pathItem) as unknown as Operation[]);
}

function parametersOf(document: typeof contract, operation: Operation): Parameter[] {
  return (operation.parameters ?? []).map((parameter) =>
    parameter.$ref
      ? (document.components.parameters[parameter.$ref.replace('#/components/parameters/', '')] as unknown as Parameter)
      : parameter,
  );
}

/** The call a sample makes: `quotes[.withMeta].<operationId>(<argument object>)`. */
function callIn(source: string): { operationId: string; args: Record<string, unknown> } {
  const match = /await quotes\.(?:withMeta\.)?(\w+)\((\{.*\})?\);/.exec(source);
  if (!match) throw new Error(`no client call in:\n${source}`);
  // The argument object is a JavaScript literal of names and single-quoted strings or numbers.
  const json = (match[2] ?? '{}').replace(/(\w+):/g, '"$1":').replace(/'/g, '"');
  return { operationId: match[1]!, args: JSON.parse(json) as Record<string, unknown> };
}

describe('the reference document', () => {
  it('gives every operation one client sample, links the contract files, and changes nothing else but parameter examples', () => {
    expect(operations(rendered).map((operation) => operation['x-codeSamples']?.length)).toEqual([1, 1, 1, 1, 1]);
    expect(descriptionOf(rendered)).toBe(`${descriptionOf(describedContract()).trimEnd()}\n\n${contractLinks}`);
    const stripped = structuredClone(rendered);
    Object.assign(stripped.info, { description: descriptionOf(describedContract()) });
    for (const operation of operations(stripped)) delete operation['x-codeSamples'];
    for (const parameter of Object.values(stripped.components.parameters) as unknown as Parameter[]) {
      delete parameter.example;
      delete parameter.description;
    }
    const expected = structuredClone(describedContract());
    for (const parameter of Object.values(expected.components.parameters) as unknown as Parameter[]) {
      delete parameter.example;
      delete parameter.description;
    }
    expect(stripped).toEqual(expected);
  });

  it("has each sample call the client method named by its operation's operationId, with real parameters of it", () => {
    for (const operation of operations(rendered)) {
      const { source } = operation['x-codeSamples']![0]!;
      const { operationId, args } = callIn(source);
      expect(operationId).toBe(operation.operationId);
      // The key request is called with its body's example, and without a key.
      const body = operation.requestBody?.content['application/json']?.example;
      if (body) {
        expect(args).toEqual(body);
        expect(source).toContain(`createQuotesClient({ baseUrl: '${sampleOriginPlaceholder}' })`);
        continue;
      }
      const parameters = parametersOf(contract, operation);
      for (const [name, value] of Object.entries(args)) {
        const parameter = parameters.find((candidate) => candidate.name === name);
        expect(parameter, `${operationId} has no parameter ${name}`).toBeDefined();
        expect(parameter!.in).toBe('query');
        expect(typeof value).toBe(parameter!.schema.type === 'integer' ? 'number' : 'string');
        expect(value).toEqual(parameter!.example);
      }
      expect(source).toContain("import { createQuotesClient } from '@quotes/client';");
      expect(source).toContain(
        `createQuotesClient({ baseUrl: '${sampleOriginPlaceholder}', apiKey: '${sampleApiKey}' })`,
      );
    }
  });

  it('reads the allowance through withMeta where the call is counted, and not for quotes-usage, which never is', () => {
    const sources = Object.fromEntries(
      operations(rendered).map((operation) => [operation.operationId, operation['x-codeSamples']![0]!.source]),
    );
    for (const counted of ['getRandomQuote', 'listQuotes', 'listFilterValues']) {
      expect(sources[counted]).toContain(`const { data, rateLimit } = await quotes.withMeta.${counted}(`);
    }
    expect(sources.getUsage).toContain('const data = await quotes.getUsage();\nconsole.log(data);');
    expect(sources.getUsage).not.toContain('rateLimit');
  });

  it('uses one filter (every plan allows one) and the paging parameters, so a first try is not a 403', () => {
    const samples = Object.fromEntries(
      operations(rendered).map((operation) => [
        operation.operationId,
        callIn(operation['x-codeSamples']![0]!.source).args,
      ]),
    );
    expect(samples).toEqual({
      getRandomQuote: { category: 'grief' },
      listQuotes: { category: 'grief', limit: 10, offset: 0 },
      listFilterValues: {},
      getUsage: {},
      requestKey: (contract.paths['/keys/requests']!.post as unknown as Operation).requestBody!.content[
        'application/json'
      ]!.example,
    });
  });

  it("keeps the other filters' examples as text only, so the page's samples and first try send what the client sample sends", () => {
    const parameters = rendered.components.parameters as unknown as Record<string, Parameter>;
    for (const name of ['MoodFilter', 'LengthFilter', 'EraFilter', 'FaithFilter']) {
      const original = contract.components.parameters[name] as unknown as Parameter;
      expect(parameters[name]!.example, name).toBeUndefined();
      expect(parameters[name]!.description).toContain(`Example: \`${String(original.example)}\``);
    }
    expect(parameters.CategoryFilter!.example).toBe('grief');
    expect(parameters.Limit!.example).toBe(10);
    // A header the client sends itself keeps its example.
    expect(parameters.IfNoneMatch!.example).toBe(
      (contract.components.parameters.IfNoneMatch as unknown as Parameter).example,
    );
  });

  it('leaves the contract it was given untouched', () => {
    const before = JSON.stringify(contract);
    referenceDocument(contract);
    expect(JSON.stringify(contract)).toBe(before);
  });
});

describe('clientSample', () => {
  it('writes strings quoted and escaped, numbers bare, and no argument object when there is none', () => {
    expect(clientSample('listQuotes', { category: "it's", limit: 5 })).toContain(
      "await quotes.withMeta.listQuotes({ category: 'it\\'s', limit: 5 });",
    );
    expect(clientSample('listFilterValues', {})).toContain('await quotes.withMeta.listFilterValues();');
    expect(clientSample('getUsage', {}, false)).toContain('await quotes.getUsage();');
  });

  it('refuses a parameter name that is not a plain identifier rather than write broken code', () => {
    expect(() => clientSample('listQuotes', { 'If-None-Match': 'x' })).toThrow(/not a plain identifier/);
  });
});
