import { Html, html as escapedHtml, jsonIsland, visibleText } from '@quotes/text-rules';

/**
 * The console's HTML template: @quotes/text-rules' `html` (every value escaped), and every value
 * that lands in the page's text shown as written (visibleText): a client named with a
 * right-to-left override reads as stored, not reversed. Values inside a tag (attribute values:
 * a form field's value, a link) are escaped only, so a form sends back what it was given.
 */

type Value = Parameters<typeof escapedHtml>[1];

function visible(value: Value): Value {
  if (typeof value === 'string') return visibleText(value);
  if (Array.isArray(value)) return value.map(visible);
  return value;
}

/** Whether each value of a template stands inside a tag, read from the template's fixed parts. */
function insideTag(strings: TemplateStringsArray): boolean[] {
  const inside: boolean[] = [];
  let tag = false;
  let quote: string | null = null;
  for (let index = 0; index < strings.length - 1; index++) {
    for (const character of strings[index]!) {
      if (quote !== null) {
        if (character === quote) quote = null;
      } else if (tag) {
        if (character === '"' || character === "'") quote = character;
        else if (character === '>') tag = false;
      } else if (character === '<') tag = true;
    }
    inside.push(tag);
  }
  return inside;
}

const layouts = new WeakMap<TemplateStringsArray, boolean[]>();

export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let inside = layouts.get(strings);
  if (!inside) {
    inside = insideTag(strings);
    layouts.set(strings, inside);
  }
  const layout = inside;
  return escapedHtml(strings, ...values.map((value, index) => (layout[index] ? value : visible(value))));
}

/**
 * A form field's own text (a textarea's content): escaped only, as an attribute value is, so the
 * form shows real line breaks and sends back what it was given.
 */
export const fieldText = (text: string): Html => escapedHtml`${text}`;

export { Html, jsonIsland };
