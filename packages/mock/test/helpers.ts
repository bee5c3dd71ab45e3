import { loadContract } from '@quotes/contract';

interface ResponseObject {
  $ref?: string;
  content?: Record<string, { example?: unknown }>;
}

/** The example the contract documents for one response, read from the contract itself. */
export function contractExample(path: string, status: string): unknown {
  const contract = loadContract();
  const operation = contract.paths[path]?.get as unknown as { responses: Record<string, ResponseObject> };
  let response = operation.responses[status];
  if (response?.$ref) {
    const name = response.$ref.replace('#/components/responses/', '');
    response = (contract.components.responses as Record<string, ResponseObject>)[name];
  }
  const content = response?.content ?? {};
  const media = content['application/json'] ?? content['application/problem+json'];
  if (media?.example === undefined) throw new Error(`no single example for ${path} ${status}`);
  return media.example;
}

/** True while any process of the group led by `pid` is alive. */
export function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}
