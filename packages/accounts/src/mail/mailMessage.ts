import { type Html, html } from '@quotes/text-rules';
import type { MailMessage } from './mailer.js';

/**
 * The one way a mail is built: blocks that give both parts at once, the plain text and its
 * HTML twin (escaped by the template, so a name a stranger typed stays text in both). Links are
 * real anchors in the HTML and the bare address in the text; a key or a command is in a
 * fixed-width face in the HTML and indented on a line of its own in the text.
 */

/** A piece of a paragraph: text (a `\n` breaks the line), a link, or fixed-width text (a header name, a command). */
export type Inline = string | { readonly link: string } | { readonly code: string };

/** A paragraph: one piece or several in a row. */
export type Paragraph = Inline | readonly Inline[];

export type Block = Paragraph | Shaped;

type Shaped =
  /** The key itself: large, fixed-width, `id="key"` in the HTML; indented alone in the text. */
  | { readonly key: string }
  /** Label and value pairs: a table that holds in narrow clients; aligned, indented lines in the text. */
  | { readonly rows: readonly (readonly [string, string])[] }
  /** A sentence that leads to what follows it on its own line: a link, or a command to copy. */
  | { readonly lead: Paragraph; readonly link: string }
  | { readonly lead: Paragraph; readonly command: string };

const mono = 'font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';

const piecesOf = (paragraph: Paragraph): readonly Inline[] =>
  typeof paragraph === 'string' || !Array.isArray(paragraph) ? [paragraph as Inline] : (paragraph as readonly Inline[]);

function inlineText(piece: Inline): string {
  if (typeof piece === 'string') return piece;
  return 'link' in piece ? piece.link : piece.code;
}

function inlineHtml(piece: Inline): Html {
  if (typeof piece === 'string')
    return html`${piece.split('\n').map((line, index) => (index === 0 ? html`${line}` : html`<br>${line}`))}`;
  if ('link' in piece) return html`<a href="${piece.link}">${piece.link}</a>`;
  return html`<code style="${mono}">${piece.code}</code>`;
}

const paragraphText = (paragraph: Paragraph) => piecesOf(paragraph).map(inlineText).join('');
const paragraphHtml = (paragraph: Paragraph) => html`${piecesOf(paragraph).map(inlineHtml)}`;

/** The blocks that are more than a paragraph: a key, rows, or a lead with what follows it. */
const shaped = (block: Block): Shaped | undefined =>
  typeof block === 'object' && !Array.isArray(block) && ('lead' in block || 'key' in block || 'rows' in block)
    ? (block as Shaped)
    : undefined;

function blockText(paragraphOrShaped: Block): string {
  const block = shaped(paragraphOrShaped);
  if (block === undefined) return paragraphText(paragraphOrShaped as Paragraph);
  if ('key' in block) return `  ${block.key}`;
  if ('rows' in block) {
    const width = Math.max(...block.rows.map(([label]) => label.length)) + 2;
    return block.rows.map(([label, value]) => `  ${`${label}:`.padEnd(width)}${value}`).join('\n');
  }
  return `${paragraphText(block.lead)}\n  ${'command' in block ? block.command : block.link}`;
}

function blockHtml(paragraphOrShaped: Block): Html {
  const block = shaped(paragraphOrShaped);
  if (block === undefined) return html`<p>${paragraphHtml(paragraphOrShaped as Paragraph)}</p>\n`;
  if ('key' in block)
    return html`<p><code id="key" style="${mono}; font-size: 15px; background: #f6f6f6; padding: 4px 6px; word-break: break-all">${block.key}</code></p>\n`;
  if ('rows' in block)
    return html`<table role="presentation" cellpadding="0" cellspacing="0" style="border-collapse: collapse; max-width: 100%">
${block.rows.map(
  ([
    label,
    value,
  ]) => html`<tr><th align="left" valign="top" style="padding: 2px 16px 2px 0; white-space: nowrap; font-weight: 600">${label}</th><td valign="top" style="padding: 2px 0">${value}</td></tr>
`,
)}</table>\n`;
  if ('command' in block)
    return html`<p>${paragraphHtml(block.lead)}</p>
<pre style="${mono}; font-size: 13px; background: #f6f6f6; padding: 8px; white-space: pre-wrap; word-break: break-all">${block.command}</pre>\n`;
  return html`<p>${paragraphHtml(block.lead)}<br><a href="${block.link}">${block.link}</a></p>\n`;
}

/** A mail to `to`: its text, blocks apart by a blank line, and the same blocks as HTML. */
export function mailMessage(to: string, subject: string, blocks: readonly Block[]): MailMessage {
  const page = html`<!doctype html><html><body style="font-family: system-ui, sans-serif; color: #2a2f45; line-height: 1.5">
${blocks.map(blockHtml)}</body></html>`;
  return { to, subject, text: blocks.map(blockText).join('\n\n'), html: page.text };
}
