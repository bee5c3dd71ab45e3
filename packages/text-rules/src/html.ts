import escapeHtml from 'escape-html';

/**
 * HTML built from templates whose every interpolated value is escaped (escape-html) unless it is
 * already `Html` built the same way: text from the database can never become markup.
 */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

type Value = Html | string | number | boolean | null | undefined | readonly Value[];

function render(value: Value): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let text = strings[0]!;
  for (let index = 0; index < values.length; index++) text += render(values[index]!) + strings[index + 1]!;
  return new Html(text);
}

/**
 * JSON for a `<script type="application/json">` data island: `<`, `>`, `&` and the line
 * separators as \u escapes, so no value can close the element or start a comment.
 */
export function jsonIsland(id: string, data: unknown): Html {
  const json = JSON.stringify(data).replace(
    /[<>&\u2028\u2029]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return new Html(`<script type="application/json" id="${escapeHtml(id)}">${json}</script>`);
}
