import { loadContract } from '@quotes/contract';
import type { Locator, Page } from 'playwright-core';

export interface LiveResponse {
  status: number;
  /** The response body as the page shows it: of a long one, the lines in view. */
  body: string;
  /** Response headers as the page lists them, names lower-cased. */
  headers: Record<string, string>;
}

/**
 * A body without its whitespace, to compare what the page shows (JSON pretty-printed, and of a
 * long body only the lines in view: the editor renders no others) with what the server sent.
 */
function compact(text: string): string {
  return text.replace(/\s+/g, '');
}

export interface OperationPlace {
  method: string;
  path: string;
}

/** Where the contract puts an operation: the page addresses operations by method and path. */
export function placeOf(operationId: string): OperationPlace {
  for (const [path, pathItem] of Object.entries(loadContract().paths)) {
    for (const [method, operation] of Object.entries(pathItem)) {
      if (operation.operationId === operationId) return { method, path };
    }
  }
  throw new Error(`the contract has no operation ${operationId}`);
}

/** Every operation as the sidebar labels it ("GET /v1/quotes-random"), in the contract's order. */
export function contractOperationLabels(): string[] {
  return Object.entries(loadContract().paths).flatMap(([path, pathItem]) =>
    Object.keys(pathItem).map((method) => `${method.toUpperCase()} ${path}`),
  );
}

/**
 * Drives the reference page served at /docs (Scalar's markup) the way a reader does. The markup
 * is the renderer's, so its selectors live here, next to the router that serves it, and tests of
 * any package (the server's, the mock's) read the page through this one class. It goes by the
 * accessible names a screen reader announces wherever the renderer gives them.
 */
export class ReferencePage {
  constructor(readonly page: Page) {}

  private get sidebar(): Locator {
    return this.page.getByRole('complementary', { name: /^Sidebar for / });
  }

  private get client(): Locator {
    return this.page.getByRole('dialog', { name: 'API Client' });
  }

  /** Opens `url` (/docs, or / which redirects there) and waits for the sidebar's operations. */
  async open(url: string): Promise<void> {
    const response = await this.page.goto(url);
    // A missing mount would otherwise surface as a long wait for operations that never render.
    if (!response?.ok()) throw new Error(`${url} answered ${response?.status() ?? 'nothing'}, not the reference page`);
    await this.sidebar
      .getByRole('link', { name: /HTTP Method:/ })
      .first()
      .waitFor();
  }

  /** Reloads the page, as a reader coming back does, and waits for the operations again. */
  async reload(): Promise<void> {
    await this.page.reload();
    await this.sidebar
      .getByRole('link', { name: /HTTP Method:/ })
      .first()
      .waitFor();
  }

  /** The operations the sidebar lists, in its order, as `GET /v1/...`. */
  async sidebarOperations(): Promise<string[]> {
    const links = this.sidebar.getByRole('link', { name: /HTTP Method:/ });
    const hrefs = await links.evaluateAll((elements) => elements.map((element) => element.getAttribute('href') ?? ''));
    return hrefs.map((href) => {
      const match = /\/(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS)(\/.*)$/i.exec(href);
      if (!match) throw new Error(`a sidebar operation links to ${href}`);
      return `${match[1]!.toUpperCase()} ${match[2]}`;
    });
  }

  /** Types `text` into the page's search and returns the titles of the results it offers. */
  async search(text: string): Promise<string[]> {
    await this.sidebar.getByRole('button', { name: /^Open Search/ }).click();
    const box = this.page.getByRole('dialog').getByRole('combobox').or(this.page.getByRole('searchbox')).first();
    await box.fill(text);
    const options = this.page.getByRole('dialog').getByRole('option');
    await options.first().waitFor();
    const titles = await options.allInnerTexts();
    await this.page.keyboard.press('Escape');
    return titles.map((title) => title.replace(/\s+/g, ' ').trim());
  }

  /** The server "try it" calls, as the introduction shows it selected. */
  async selectedServer(): Promise<string> {
    const button = this.page
      .getByRole('main')
      .getByRole('button', { name: /^Server: / })
      .first();
    return (await button.innerText()).replace(/^Server:\s*/, '').trim();
  }

  /** Scrolls to an operation (the page renders sections lazily) and returns its section. */
  async operation(operationId: string): Promise<Locator> {
    const { method, path } = placeOf(operationId);
    const href = `/${method.toUpperCase()}${path}`;
    const link = this.sidebar.locator(`a[href$="${href}"]`);
    await link.click();
    const section = this.page.locator(`section[id$="${href}"]`);
    await section.getByRole('group', { name: `Request Example for ${method}${path}` }).waitFor();
    return section;
  }

  private async requestExample(operationId: string): Promise<Locator> {
    const { method, path } = placeOf(operationId);
    const section = await this.operation(operationId);
    return section.getByRole('group', { name: `Request Example for ${method}${path}` });
  }

  /**
   * The request samples an operation offers: each entry of the language menu (e.g. `Shell Curl`,
   * `Python Requests`, `@quotes/client`) with the code shown once it is chosen. Choosing one
   * changes the choice for every operation, as a reader's click does.
   */
  async samples(operationId: string): Promise<Record<string, string>> {
    const example = await this.requestExample(operationId);
    const menu = example.getByRole('button').first();
    await menu.click();
    const listbox = this.page.getByRole('listbox');
    const labels: string[] = [];
    for (const group of await listbox.getByRole('group').all()) {
      const groupName =
        (await group.getAttribute('aria-label')) ?? (await group.locator(':scope > *').first().innerText());
      for (const option of await group.getByRole('option').allInnerTexts())
        labels.push(`${groupName.trim()}|${option.trim()}`);
    }
    await this.page.keyboard.press('Escape');
    const samples: Record<string, string> = {};
    for (const label of labels) {
      const [groupName, option] = label.split('|') as [string, string];
      await menu.click();
      await this.page
        .getByRole('listbox')
        .getByRole('group', { name: groupName })
        .getByRole('option', { name: option, exact: true })
        .click();
      const name = groupName === 'Code Examples' ? option : `${groupName} ${option}`;
      samples[name] = (await example.getByRole('code').innerText()).trim();
    }
    return samples;
  }

  /** The statuses an operation documents, in the page's order, e.g. ['200', '400', ...]. */
  async documentedStatuses(operationId: string): Promise<string[]> {
    const section = await this.operation(operationId);
    const tabs = await section.getByRole('tab', { name: /^Status: / }).allInnerTexts();
    return tabs.map((tab) => tab.replace(/\D+/g, ''));
  }

  /** What the page documents for one status: its description, headers and example, as text. */
  async documentedResponse(operationId: string, status: string): Promise<string> {
    const section = await this.operation(operationId);
    const entry = section
      .getByRole('list', { name: 'Responses' })
      .getByRole('button', { name: new RegExp(`^${status}\\b`) })
      .first();
    if ((await entry.getAttribute('aria-expanded')) !== 'true') await entry.click();
    const item = entry.locator('xpath=ancestor::li[1]');
    const headers = item.getByRole('button', { name: 'Headers', exact: true });
    if ((await headers.count()) > 0 && (await headers.getAttribute('aria-expanded')) !== 'true') await headers.click();
    await section.getByRole('tab', { name: `Status: ${status}` }).click();
    const example = section
      .getByRole('tabpanel')
      .or(section.getByRole('region', { name: /Status: / }))
      .first();
    return `${await item.innerText()}\n${await example.innerText()}`;
  }

  /** Enters the key for the contract's X-API-Key scheme once, in the introduction's authentication box. */
  async enterApiKey(key: string): Promise<void> {
    const box = this.page
      .getByRole('main')
      .getByRole('region', { name: /^Authentication/ })
      .first();
    await box.getByRole('textbox', { name: 'Value' }).fill(key);
  }

  /**
   * "Test Request" on an operation: fills `parameters` (by name; the others keep what the page
   * put there), sends, and reads status, headers and body off the page, then closes the client.
   */
  async tryIt(operationId: string, parameters: Record<string, string> = {}): Promise<LiveResponse> {
    const example = await this.requestExample(operationId);
    await example.getByRole('button', { name: /^Test Request/ }).click();
    const client = this.client;
    await client.waitFor();
    for (const [name, value] of Object.entries(parameters)) {
      const row = client.getByRole('row', { name: new RegExp(`^Include ${name} in request`) });
      await row.getByRole('combobox', { name: 'Value' }).fill(value);
      const include = row.getByRole('checkbox');
      if (!(await include.isChecked())) await include.check();
    }
    const { path } = placeOf(operationId);
    const answered = this.page.waitForResponse((answer) => new URL(answer.url()).pathname === path);
    await client.getByRole('button', { name: /^Send .* request to / }).click();
    const answer = await answered;
    const response = client.getByRole('region', { name: 'Response', exact: true });
    // The window may still show this operation's previous answer: wait until it shows this one.
    const bodyBox = response.getByRole('region', { name: 'Body' }).getByRole('textbox');
    const expected = compact(await answer.text());
    const deadline = Date.now() + 15_000;
    let body = '';
    const statusLink = response.getByRole('link', { name: new RegExp(`^${answer.status()}\\b`) });
    for (;;) {
      const shown = await statusLink.count();
      body = shown > 0 && (await bodyBox.count()) > 0 ? (await bodyBox.innerText()).trim() : '';
      if (shown > 0 && body !== '' && expected.startsWith(compact(body))) break;
      if (Date.now() > deadline) throw new Error(`the page did not show the ${answer.status()} answer of ${path}`);
      await this.page.waitForTimeout(100);
    }
    const headersBox = response.getByRole('button', { name: /^Response Headers/ });
    if ((await headersBox.getAttribute('aria-expanded')) !== 'true') await headersBox.click();
    const headerTable = response.getByRole('region', { name: /^Response Headers/ });
    // The table renders after the section opens, on a busy machine after this line would run.
    await headerTable.getByRole('cell').first().waitFor();
    const headers: Record<string, string> = {};
    for (const row of await headerTable.getByRole('row').all()) {
      const cells = await row.getByRole('cell').allInnerTexts();
      if (cells.length === 2) headers[cells[0]!.trim().toLowerCase()] = cells[1]!.trim();
    }
    const result = { status: Number((await statusLink.innerText()).slice(0, 3)), body, headers };
    await client.getByRole('button', { name: 'Close Client' }).click();
    await client.waitFor({ state: 'hidden' });
    return result;
  }
}
