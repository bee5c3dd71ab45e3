/**
 * How a request appears in the suite's failure details: `GET /v1/quotes-random?era=x [x-api-key]`,
 * the credential headers by name only, so reports never carry a key. Written and read here only.
 */
export function requestLine(method: string, pathAndQuery: string, headerNames: readonly string[]): string {
  const credentials = headerNames.filter((name) => /^(x-api-key|authorization)$/i.test(name));
  return `${method} ${pathAndQuery} [${credentials.length > 0 ? credentials.join(', ') : 'no key'}]`;
}

const pattern = /\b(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS) (\/\S*) \[([^\]]*)\]/g;

export interface ParsedRequestLine {
  readonly method: string;
  readonly pathAndQuery: string;
  readonly credentials: readonly string[];
}

/** Every request line in a failure's detail, in order, without repeats. */
export function requestLinesIn(text: string): ParsedRequestLine[] {
  const seen = new Set<string>();
  const found: ParsedRequestLine[] = [];
  for (const match of text.matchAll(pattern)) {
    if (seen.has(match[0])) continue;
    seen.add(match[0]);
    const names = (match[3] ?? '').split(',').map((name) => name.trim());
    found.push({
      method: match[1]!,
      pathAndQuery: match[2]!,
      credentials: names.filter((name) => name !== '' && name !== 'no key'),
    });
  }
  return found;
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * A curl line that repeats the request against `baseUrl`. Keys appear as shell variables
 * (`$QUOTES_KEY`, and `$QUOTES_OTHER_KEY` for the second of two), to be set by whoever replays it.
 */
export function curlLine(baseUrl: string, request: ParsedRequestLine): string {
  const parts = ['curl', '-sS', '-i'];
  if (request.method !== 'GET') parts.push('-X', request.method);
  parts.push(shellQuote(`${baseUrl}${request.pathAndQuery}`));
  request.credentials.forEach((name, index) => {
    const variable = index === 0 ? '$QUOTES_KEY' : '$QUOTES_OTHER_KEY';
    parts.push(
      '-H',
      name.toLowerCase() === 'authorization' ? `"Authorization: Bearer ${variable}"` : `"X-API-Key: ${variable}"`,
    );
  });
  return parts.join(' ');
}
