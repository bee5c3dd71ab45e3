import type { ContractDocument } from '@quotes/contract';
import {
  type CodeSample,
  clientSample,
  type ParameterObject,
  resolveParameter,
  sampleArguments,
} from './clientSamples.js';

interface OperationObject {
  operationId?: string;
  'x-counted-statuses'?: number[];
  parameters?: ParameterObject[];
  requestBody?: { content?: Record<string, { example?: Record<string, unknown> }> };
  'x-codeSamples'?: CodeSample[];
}

function operationsOf(document: ContractDocument): OperationObject[] {
  return Object.values(document.paths).flatMap((pathItem) =>
    (Object.values(pathItem) as OperationObject[]).filter((operation) => typeof operation?.operationId === 'string'),
  );
}

/**
 * The contract as the reference page renders it (served at /docs/reference.json), a copy of
 * `contract` that differs in two ways only:
 * - each operation gains an `x-codeSamples` entry calling the typed client, written by
 *   clientSamples.ts from its operationId and parameters (Scalar writes curl and Python itself);
 * - an optional query parameter that no sample uses loses its `example` (kept as text in its
 *   description). Scalar fills every example into its samples and "try it", and five filters at
 *   once is a 403 on most plans: a reader's first try would fail. So every sample, and the first
 *   try, send the same arguments: the first filter and the paging parameters;
 * - the description ends with links to the contract files (relative: /docs sits beside them
 *   wherever the router is mounted).
 */
export function referenceDocument(contract: ContractDocument): ContractDocument {
  const copy = structuredClone(contract);
  const used = new Set<string>();
  for (const operation of operationsOf(copy)) {
    const args = sampleArguments(copy, operation.parameters);
    for (const name of Object.keys(args)) used.add(name);
    operation['x-codeSamples'] = [
      {
        lang: 'js',
        label: '@quotes/client',
        source: clientSample(
          operation.operationId as string,
          args,
          (operation['x-counted-statuses'] ?? []).length > 0,
          operation.requestBody?.content?.['application/json']?.example,
        ),
      },
    ];
  }
  const parameters = [
    ...(Object.values(copy.components.parameters) as ParameterObject[]),
    ...operationsOf(copy).flatMap((operation) => (operation.parameters ?? []).filter((entry) => !entry.$ref)),
  ];
  for (const parameter of parameters.map((entry) => resolveParameter(copy, entry))) {
    if (parameter.required || parameter.in !== 'query' || parameter.example === undefined) continue;
    if (used.has(parameter.name ?? '')) continue;
    parameter.description = `${parameter.description ?? ''}\n\nExample: \`${String(parameter.example)}\``.trim();
    delete parameter.example;
  }
  const info = copy.info as { description?: string };
  info.description = `${(info.description ?? '').trimEnd()}\n\n${contractLinks}`;
  return copy;
}

/** The closing line of the rendered description. */
export const contractLinks =
  'The contract itself, for code generators and editors (no key needed): [openapi.yaml](openapi.yaml), [openapi.json](openapi.json).';
