/// <reference lib="dom" />
import { loadContract } from '@quotes/contract';
import type { Locator, Page } from 'playwright-core';
import { placeOf } from './referencePage.js';

/**
 * Checks that the reference page, as laid out in the browser, reads well: each returns what is
 * wrong, as sentences, and an empty list when nothing is. They take the page the reader sees
 * (/docs, loaded) and measure rendered text, so they hold at whatever viewport the page has.
 *
 * The functions passed to evaluate run in the browser; this package compiles without the DOM
 * library, so they reach `document` through the element they are given.
 */

/** The sizes the page is checked at: a laptop window and a phone. */
export const readingViewports = [
  { name: '1280x900', width: 1280, height: 900 },
  { name: '390x844', width: 390, height: 844 },
] as const;

/** Every word of every cell of the description's tables that the layout split across lines. */
export async function wordsBrokenInTables(page: Page): Promise<string[]> {
  const tables = page.getByRole('main').locator('.markdown table');
  await tables.first().waitFor();
  return tables.evaluateAll((elements) => {
    const broken: string[] = [];
    for (const table of elements) {
      const document = table.ownerDocument;
      for (const cell of table.querySelectorAll('th, td')) {
        const walker = document.createTreeWalker(cell, 4 /* NodeFilter.SHOW_TEXT */);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          for (const word of (node.textContent as string).matchAll(/\S+/g)) {
            const range = document.createRange();
            range.setStart(node, word.index);
            range.setEnd(node, word.index + word[0].length);
            const lines = new Set<number>();
            for (const rect of range.getClientRects()) if (rect.width > 0) lines.add(Math.round(rect.top));
            if (lines.size > 1)
              broken.push(`"${word[0]}" (in the cell "${cell.textContent.trim()}") is split over ${lines.size} lines`);
          }
        }
      }
    }
    return broken;
  });
}

/**
 * Pairs of text drawn over each other anywhere in `box`: each text node's line boxes (a Range's
 * client rects) against every other node's. Text a screen reader alone reads (a box of 1 px or
 * less) is left out.
 */
async function overlappingTextIn(box: Locator): Promise<string[]> {
  await box.waitFor();
  return box.evaluate((root) => {
    const document = root.ownerDocument;
    const pieces: Array<{ text: string; rects: Array<{ left: number; right: number; top: number; bottom: number }> }> =
      [];
    const walker = document.createTreeWalker(root, 4 /* NodeFilter.SHOW_TEXT */);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = (node.textContent as string).trim();
      const owner = (node.parentElement as Element).getBoundingClientRect();
      if (text === '' || owner.width <= 1 || owner.height <= 1) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const rects = [...range.getClientRects()].filter((rect) => rect.width > 0 && rect.height > 0);
      if (rects.length > 0) pieces.push({ text, rects });
    }
    const overlaps: string[] = [];
    // A pixel of tolerance: neighbouring inline texts touch without overlapping.
    const apart = (a: (typeof pieces)[0]['rects'][0], b: (typeof pieces)[0]['rects'][0]) =>
      a.right <= b.left + 1 || b.right <= a.left + 1 || a.bottom <= b.top + 1 || b.bottom <= a.top + 1;
    pieces.forEach((first, index) => {
      for (const second of pieces.slice(index + 1)) {
        if (first.rects.some((a) => second.rects.some((b) => !apart(a, b))))
          overlaps.push(`"${first.text}" and "${second.text}" are drawn over each other`);
      }
    });
    return overlaps;
  });
}

function authenticationBox(page: Page): Locator {
  return page
    .getByRole('main')
    .getByRole('region', { name: /^Authentication/ })
    .first();
}

/** Text drawn over other text in the introduction's authentication box. */
export function overlappingTextInAuthentication(page: Page): Promise<string[]> {
  return overlappingTextIn(authenticationBox(page));
}

/**
 * What the authentication box's key field shows before a key is entered: it must be empty and
 * carry no placeholder, which a reader could take for a key already filled in.
 */
export async function prefilledKeyField(page: Page): Promise<string[]> {
  const field = authenticationBox(page).getByRole('textbox', { name: 'Value' });
  await field.waitFor();
  const [placeholder, value] = await field.evaluate((input) => [
    input.getAttribute('placeholder'),
    (input as HTMLInputElement).value,
  ]);
  const problems: string[] = [];
  if (placeholder) problems.push(`the key field has the placeholder "${placeholder}"`);
  if (value) problems.push(`the key field holds "${value}"`);
  return problems;
}

/** Where the sidebar links an operation: `/GET/v1/quotes-random` ends its href. */
function linkOf(operationId: string): string {
  const { method, path } = placeOf(operationId);
  return `/${method.toUpperCase()}${path}`;
}

/**
 * Goes to an operation's section as its sidebar link does, by the link's hash: at any width, also
 * where the sidebar is folded away (a phone's window).
 */
async function showOperation(page: Page, operationId: string): Promise<Locator> {
  const href = await page
    .locator(`a[href$="${linkOf(operationId)}"]`)
    .first()
    .getAttribute('href');
  if (!href) throw new Error(`the page has no link to ${operationId}`);
  await page.evaluate((hash) => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = hash;
  }, href);
  const section = page.locator(`section[id$="${linkOf(operationId)}"]`);
  await section.getByRole('button', { name: /^Test Request/ }).waitFor();
  return section;
}

/** Text drawn over other text in the authentication box of an operation's "Test Request" window. */
export async function overlappingTextInTestRequest(page: Page, operationId: string): Promise<string[]> {
  const section = await showOperation(page, operationId);
  await section.getByRole('button', { name: /^Test Request/ }).click();
  const client = page.getByRole('dialog', { name: 'API Client' });
  const overlaps = await overlappingTextIn(client.getByRole('region', { name: /^Authentication/ }).first());
  await client.getByRole('button', { name: 'Close Client' }).click();
  await client.waitFor({ state: 'hidden' });
  return overlaps;
}

/**
 * The response tabs of an operation a reader cannot see whole or click: each tab's label must be
 * inside the window, cut off by no scrolling or clipping box, be what the browser finds at its
 * left end, middle and right end (no button drawn over it), and have no other control within
 * 2 px of it, once the page is scrolled to the tabs. The tab
 * list is never scrolled sideways: its scroll bar is hidden, so a tab reachable only that way is
 * one a reader does not know is there. Each tab is then clicked and must become the selected one.
 */
export async function unreachableResponseTabs(page: Page, operationId: string): Promise<string[]> {
  const section = await showOperation(page, operationId);
  const tabs = section.getByRole('tab', { name: /^Status: / });
  await tabs.first().waitFor();
  const problems: string[] = [];
  for (const tab of await tabs.all()) {
    const status = (await tab.innerText()).replace(/\D+/g, '');
    // A label seen outside the window is looked at again after the page settles once more (at
    // most three times): on a loaded machine lazy rendering can move the tabs after they stood
    // still for 200 ms. A tab that is really out of reach stays there.
    let seen = '';
    for (let look = 0; look < 3; look++) {
      seen = await seenAtRest(tab);
      if (!seen.startsWith('its label is outside')) break;
    }
    if (seen) {
      problems.push(`${operationId} ${status}: ${seen}`);
      continue;
    }
    // A tab no click reaches fails the check in seconds, not the default half-minute; on a loaded
    // machine (another size's page laid out at the same time) a click that works can take several.
    await tab.click({ timeout: 15_000 });
    if ((await tab.getAttribute('aria-selected')) !== 'true')
      problems.push(`${operationId} ${status}: a click did not select it`);
  }
  return problems;
}

/** What stands in the way of reading one tab's label, once the page has scrolled to it and settled. */
async function seenAtRest(tab: Locator): Promise<string> {
  // Again for each tab, until the tabs stay put: the page renders sections lazily as it
  // scrolls (content above moves them), and selecting a tab changes the height of the example
  // below it, which moves the tabs of the page's last operation when the page is at its end.
  await tab.evaluate(async (element) => {
    const window = element.ownerDocument.defaultView as Window;
    const pause = () => new Promise((resolve) => window.setTimeout(resolve, 100));
    // At rest: the same place after 100 ms twice in a row (at most 6 s).
    for (let rounds = 0, steady = 0, last = Number.NaN; rounds < 60 && steady < 2; rounds++) {
      (element.parentElement as Element).scrollIntoView({ block: 'center', inline: 'nearest' });
      await pause();
      const top = element.getBoundingClientRect().top;
      steady = top === last ? steady + 1 : 0;
      last = top;
    }
  });
  return tab.evaluate((element) => {
    const document = element.ownerDocument;
    const window = document.defaultView as Window;
    const describe = (hit: Element | null) =>
      hit
        ? `${hit.tagName.toLowerCase()}${hit.getAttribute('class') ? `.${hit.getAttribute('class')}` : ''}`
        : 'nothing';
    const walker = document.createTreeWalker(element, 4 /* NodeFilter.SHOW_TEXT */);
    let labels = 0;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const owner = (node.parentElement as Element).getBoundingClientRect();
      if ((node.textContent as string).trim() === '' || owner.width <= 1 || owner.height <= 1) continue;
      labels++;
      const range = document.createRange();
      range.selectNodeContents(node);
      const label = range.getBoundingClientRect();
      if (label.left < 0 || label.right > window.innerWidth || label.top < 0 || label.bottom > window.innerHeight)
        return `its label is outside the ${window.innerWidth}x${window.innerHeight} window`;
      // Half a pixel of tolerance for rounding; a clipped glyph is cut off however little.
      for (let box = node.parentElement; box && box !== document.body; box = box.parentElement) {
        const style = window.getComputedStyle(box);
        if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
        const edges = box.getBoundingClientRect();
        if (label.left < edges.left - 0.5 || label.right > edges.right + 0.5)
          return `its label is cut off at the edge of ${describe(box)}`;
      }
      const middle = (label.top + label.bottom) / 2;
      for (const x of [label.left + 1, (label.left + label.right) / 2, label.right - 1]) {
        const hit = document.elementFromPoint(x, middle);
        if (!element.contains(hit)) return `at x=${Math.round(x)} of its label the page shows ${describe(hit)}`;
      }
      // Another control touching the label (an icon drawn against it) reads as covering it.
      for (const x of [label.left - 2, label.right + 2]) {
        const control = document
          .elementFromPoint(x, middle)
          ?.closest('button, a, input, label, select, [role]:not([role="presentation"], [role="none"])');
        if (control && control !== element && !element.contains(control) && control.getAttribute('role') !== 'tablist')
          return `${describe(control)} touches its label at x=${Math.round(x)}`;
      }
    }
    return labels > 0 ? '' : 'it shows no label';
  });
}

/** The operations of the contract, by operationId, for checking each operation's tabs. */
export function operationIds(): string[] {
  return Object.values(loadContract().paths).flatMap((pathItem) =>
    Object.values(pathItem).flatMap((operation) => (operation?.operationId ? [operation.operationId] : [])),
  );
}

/** Everything above, for the page as loaded: what a reader would stumble on, or an empty list. */
export async function readabilityProblems(page: Page): Promise<string[]> {
  const problems = [
    ...(await wordsBrokenInTables(page)),
    ...(await overlappingTextInAuthentication(page)),
    ...(await prefilledKeyField(page)),
    ...(await overlappingTextInTestRequest(page, 'getRandomQuote')),
  ];
  for (const operationId of operationIds()) problems.push(...(await unreachableResponseTabs(page, operationId)));
  return problems;
}
