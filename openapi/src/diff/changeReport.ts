import type { ChangeType, ContractChange } from './contractChanges.js';

type Segment = string | number;

/** The order a reader wants: what fails the check first; descriptions and examples only counted. */
const listed: ChangeType[] = ['breaking', 'unclassified', 'deprecated', 'non-breaking'];

/**
 * The changes as text for a terminal: grouped by kind, one line per distinct change with the
 * operations and responses it touches under it. `base` and `head` name the parameters.
 */
export function changeReport(changes: ContractChange[], base: object, head: object): string {
  const lines: string[] = [];
  for (const type of listed) {
    const ofType = changes.filter((change) => change.type === type);
    if (ofType.length === 0) continue;
    // what changed -> operation -> the responses of it where it changed
    const groups = new Map<string, Map<string, string[]>>();
    for (const change of ofType) {
      const { operation, response, what } = describe(change, change.action === 'add' ? head : base);
      const operations = groups.get(what) ?? groups.set(what, new Map()).get(what)!;
      const responses = operations.get(operation) ?? operations.set(operation, []).get(operation)!;
      if (response && !responses.includes(response)) responses.push(response);
    }
    lines.push(`${type} (${groups.size}):`);
    for (const [what, operations] of groups) {
      const places = [...operations].map(([operation, responses]) =>
        responses.length ? `${operation} (${responses.join(', ')})` : operation,
      );
      lines.push(`  ${what}`, `    in ${places.join('; ')}`);
    }
  }
  const annotations = changes.filter((change) => change.type === 'annotation').length;
  if (annotations > 0) lines.push(`annotation: ${annotations} change(s) to descriptions, examples or metadata`);
  return lines.join('\n');
}

const actions = { add: 'added', remove: 'removed', replace: 'changed', rename: 'renamed' } as const;

function describe(change: ContractChange, document: object): { operation: string; response?: string; what: string } {
  const { path } = change;
  let operation = 'the document';
  let response: string | undefined;
  let subject: Segment[] = path;
  let body = '';
  if (path[0] === 'paths' && path.length >= 3) {
    operation = `${String(path[2]).toUpperCase()} ${path[1]}`;
    const [kind, key, part, name] = path.slice(3);
    subject = path.slice(3);
    if (kind === 'responses' && key !== undefined) {
      response = String(key);
      if (part === 'content') {
        subject = path.slice(8);
        body = ` in the ${name} body`;
      } else if (part === 'headers') subject = ['header', String(name), ...path.slice(7)];
      else subject = path.slice(5);
    } else if (kind === 'parameters' && typeof key === 'number') {
      subject = [parameterName(document, path.slice(0, 5)), ...path.slice(5)];
    }
  }
  const field = schemaPath(subject) || (response ? 'response' : 'operation');
  const what = `${actions[change.action]} ${field}${body}${shownValue(change)}${change.reason ? `  (${change.reason})` : ''}`;
  return { operation, response, what };
}

// Keywords that only lead to the part that changed.
const structural = new Set(['properties', 'schema', 'oneOf', 'anyOf', 'allOf']);

/** `properties.quotes.items.properties.category.enum.3` reads as `quotes[].category.enum`. */
function schemaPath(path: Segment[]): string {
  let text = '';
  path.forEach((segment, index) => {
    const named = path[index - 1] === 'properties';
    if (named) text += text ? `.${segment}` : String(segment);
    else if (segment === 'items') text += '[]';
    else if (typeof segment === 'string' && !structural.has(segment)) text += text ? `.${segment}` : segment;
  });
  return text;
}

function shownValue({ action, before, after }: ContractChange): string {
  // A schema or a parameter is named by the path already; its whole text would bury the line.
  const shown = (value: unknown) => {
    const text = JSON.stringify(value) ?? 'nothing';
    return text.length > 60 ? '...' : text;
  };
  if (action === 'replace' || action === 'rename') return `: ${shown(before)} -> ${shown(after)}`;
  const text = shown(action === 'add' ? after : before);
  return text === '...' ? '' : `: ${text}`;
}

/** `query parameter limit` for `paths./v1/x.get.parameters.3`, following a `$ref`. */
function parameterName(document: object, path: Segment[]): string {
  let parameter = path.reduce<unknown>((node, key) => (node as Record<Segment, unknown> | undefined)?.[key], document);
  const ref = (parameter as { $ref?: string } | undefined)?.$ref;
  if (ref?.startsWith('#/')) {
    parameter = ref
      .slice(2)
      .split('/')
      .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], document);
  }
  const { in: location, name, required } = (parameter ?? {}) as { in?: string; name?: string; required?: boolean };
  return name ? `${required ? 'required ' : ''}${location} parameter ${name}` : `parameter ${path.at(-1)}`;
}
