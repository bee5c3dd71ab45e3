/** What the parity test sends to the server and the mock alike, and what it compares of each answer. */

export interface Seen {
  status: number;
  type: string | undefined;
  allow: string | null;
  errors: unknown;
  /** The problem's instance is the answer's X-Request-Id. */
  instanceIsRequestId: boolean | undefined;
}

export async function ask(base: string, path: string, init: RequestInit): Promise<Seen> {
  const response = await fetch(`${base}${path}`, init);
  const text = await response.text();
  const body = text && response.headers.get('content-type') === 'application/problem+json' ? JSON.parse(text) : {};
  return {
    status: response.status,
    type: body.type,
    allow: response.headers.get('allow'),
    errors: body.errors,
    instanceIsRequestId: body.type ? body.instance === response.headers.get('x-request-id') : undefined,
  };
}

/** The key headers of a refusal row: the platform key, none, a Basic Authorization, or two different keys. */
const keyHeaders: Record<string, (key: string) => Record<string, string>> = {
  key: (key) => ({ 'X-API-Key': key }),
  none: () => ({}),
  basic: () => ({ Authorization: 'Basic eDp5' }),
  two: (key) => ({ 'X-API-Key': key, Authorization: 'Bearer qk_other' }),
};

/** What the server refuses without data, one request a line: method, path, key headers; what it is. */
export const refusals = `
GET /v1/quotes-random none: no key
GET /v1/quotes-usage basic: Authorization not Bearer
GET /v1/quotes-random two: two different keys
GET /v1/quotes-random?category= key: empty value
GET /v1/quotes-filter?mood=hope&mood=joy key: repeated parameter
GET /v1/quotes-random?colour=red key: unknown parameter
GET /v1/quotes-random?era=Moderm key: era outside the enum
GET /v1/quotes-filter?category=zzz key: category matching nothing
GET /v1/quotes-filter?limit=0x10 key: hexadecimal limit
GET /v1/quotes-filter?limit=0&offset=-1 key: limit 0 and negative offset
GET /v1/quotes-filter?length=Huge&faith=&x=1&limit=1e1 key: everything wrong at once
GET /v1/quotes key: unknown path
GET /v1/quotes-random/ key: trailing slash
GET /v2/quotes-random key: outside /v1
POST /v1/quotes-random key: POST
DELETE /v1/quotes-usage key: DELETE
PUT /v1/quotes-filter none: PUT without a key`
  .trim()
  .split('\n')
  .map((line) => {
    const [method, path, keys, ...name] = line.split(' ');
    return [name.join(' '), method!, path!, keyHeaders[keys!.slice(0, -1)]!] as const;
  });
