import type { ParameterError } from '@quotes/service-base/problems';

/** The part of an Ajv error (as openapi-backend reports it) this module reads. */
export interface SchemaError {
  keyword: string;
  instancePath: string;
  params: unknown;
  message?: string;
}

/** Every value of every query parameter, decoded as a form (`+` is a space), in arrival order. */
export function parseQueryString(search: string): Map<string, string[]> {
  const parameters = new Map<string, string[]>();
  for (const [name, value] of new URLSearchParams(search)) {
    const values = parameters.get(name);
    if (values) values.push(value);
    else parameters.set(name, [value]);
  }
  return parameters;
}

// The contract limits a ParameterError's `parameter` to 200 characters.
const shownName = (name: string) => (name.length > 200 ? `${name.slice(0, 197)}...` : name);

/**
 * Unknown, empty and repeated parameters are rejected: a misspelt filter must never silently
 * return unfiltered quotes. What passes goes on to the contract's schema validation as single
 * string values.
 */
export function screenQuery(
  parameters: Map<string, string[]>,
  declared: ReadonlySet<string>,
): { accepted: Record<string, string>; errors: ParameterError[] } {
  const accepted: Record<string, string> = {};
  const errors: ParameterError[] = [];
  for (const [name, values] of parameters) {
    if (!declared.has(name)) {
      const known = [...declared].join(', ');
      errors.push({
        parameter: shownName(name),
        message: known
          ? `is not a parameter of this operation (known: ${known})`
          : 'is not a parameter of this operation',
      });
    } else if (values.length > 1) {
      errors.push({ parameter: name, message: `is repeated ${values.length} times; give it once` });
    } else if (values[0] === '') {
      errors.push({ parameter: name, message: 'is empty; give a value or leave the parameter out' });
    } else {
      accepted[name] = values[0]!;
    }
  }
  return { accepted, errors };
}

function describe(error: SchemaError): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type':
      return params.type === 'integer' ? 'must be an integer' : `must be of type ${String(params.type)}`;
    case 'minimum':
      return `must be at least ${String(params.limit)}`;
    case 'maximum':
      return `must be at most ${String(params.limit)}`;
    case 'minLength':
      return 'must not be empty';
    case 'maxLength':
      return `must be at most ${String(params.limit)} characters`;
    default:
      return error.message ?? 'is invalid';
  }
}

/** The schema validator's findings, one entry per parameter. */
export function parameterErrorsFromSchema(errors: readonly SchemaError[]): ParameterError[] {
  const messages = new Map<string, string[]>();
  for (const error of errors) {
    const match = /^\/query\/(.+)$/.exec(error.instancePath);
    const additional = (error.params as { additionalProperty?: unknown }).additionalProperty;
    const parameter = match
      ? match[1]!.replaceAll('~1', '/').replaceAll('~0', '~')
      : typeof additional === 'string'
        ? additional
        : 'request';
    const list = messages.get(parameter) ?? [];
    const message = describe(error);
    if (!list.includes(message)) list.push(message);
    messages.set(parameter, list);
  }
  return [...messages].map(([parameter, list]) => ({ parameter: shownName(parameter), message: list.join('; ') }));
}

/** Merges error lists, keeping the first finding for a parameter named twice. */
export function mergeParameterErrors(...lists: ParameterError[][]): ParameterError[] {
  const seen = new Set<string>();
  const merged: ParameterError[] = [];
  for (const error of lists.flat()) {
    if (seen.has(error.parameter)) continue;
    seen.add(error.parameter);
    merged.push(error);
  }
  return merged;
}
