import type { Locator, Page } from 'playwright-core';

export interface LiveResponse {
  status: number;
  /** The response body as Swagger UI shows it (pretty-printed JSON for JSON bodies). */
  body: string;
  /** Response headers, names lower-cased, as Swagger UI lists them. */
  headers: Record<string, string>;
}

/**
 * Drives the Swagger UI page served at /docs the way a reader does. The page's markup is
 * Swagger UI's, so its selectors live here, next to the router that serves it, and tests of
 * any package (the server's, the mock's) read the page through this one class.
 */
export class ReferencePage {
  constructor(readonly page: Page) {}

  /** Opens `url` (/docs, or / which redirects there) and waits for the operations to render. */
  async open(url: string): Promise<void> {
    const response = await this.page.goto(url);
    // A missing mount would otherwise surface as a 30 s wait for operations that never render.
    if (!response?.ok()) throw new Error(`${url} answered ${response?.status() ?? 'nothing'}, not the reference page`);
    await this.page.locator('.opblock').first().waitFor();
  }

  /** The operations' paths, in the order the page lists them. */
  operationPaths(): Promise<string[]> {
    return this.page.locator('.opblock .opblock-summary-path').allTextContents();
  }

  /** The servers "Try it out" can call, as the Servers drop-down shows them. */
  servers(): Promise<string[]> {
    return this.page.locator('.servers select option').allTextContents();
  }

  private operation(operationId: string): Locator {
    return this.page.locator(`.opblock[id^="operations-"][id$="-${operationId}"]`);
  }

  /** Expands an operation (a no-op when it already is). */
  async expand(operationId: string): Promise<Locator> {
    const operation = this.operation(operationId);
    if (!(await operation.evaluate((element) => element.classList.contains('is-open')))) {
      await operation.locator('.opblock-summary').click();
    }
    await operation.locator('.opblock-body').waitFor();
    return operation;
  }

  /** The response codes the page documents for an operation, e.g. ['200', '400', '401', ...]. */
  async documentedStatuses(operationId: string): Promise<string[]> {
    const operation = await this.expand(operationId);
    const rows = operation.locator('table.responses-table:not(.live-responses-table) tr.response[data-code]');
    return rows.evaluateAll((elements) => elements.map((element) => element.getAttribute('data-code') ?? ''));
  }

  /** The text of one documented response: its description, example and headers. */
  async documentedResponse(operationId: string, status: string): Promise<string> {
    const operation = await this.expand(operationId);
    const row = operation.locator(
      `table.responses-table:not(.live-responses-table) tr.response[data-code="${status}"]`,
    );
    return (await row.textContent()) ?? '';
  }

  /** Enters `key` for the contract's ApiKeyHeader scheme through the Authorize dialog. */
  async authorizeWithApiKey(key: string): Promise<void> {
    await this.page.locator('.auth-wrapper .authorize').click();
    const scheme = this.page.locator('.modal-ux .auth-container').filter({ hasText: 'ApiKeyHeader' });
    await scheme.locator('input').fill(key);
    await scheme.locator('button.authorize').click();
    await scheme.getByText('Authorized').waitFor();
    await this.page.locator('.modal-ux .close-modal').click();
  }

  /** Scrolls an operation's header to the top of the viewport: parameters, then the live response. */
  async scrollTo(operationId: string): Promise<void> {
    const operation = await this.expand(operationId);
    await operation.locator('.opblock-summary').evaluate((element) => element.scrollIntoView({ block: 'start' }));
  }

  /**
   * "Try it out", fills `parameters` (by name; the others keep what they hold), "Execute", and
   * reads the live response off the page. A later call on the same operation replaces it.
   */
  async tryItOut(operationId: string, parameters: Record<string, string> = {}): Promise<LiveResponse> {
    const operation = await this.expand(operationId);
    const tryButton = operation.locator('button.try-out__btn');
    if ((await tryButton.textContent())?.trim() === 'Try it out') await tryButton.click();
    for (const [name, value] of Object.entries(parameters)) {
      await operation.locator(`tr[data-param-name="${name}"] input`).fill(value);
    }
    const previous = operation.locator('.live-responses-table');
    if ((await previous.count()) > 0) await operation.locator('button.btn-clear').click();
    await operation.locator('button.execute').click();

    const row = operation.locator('.live-responses-table tbody tr.response');
    await row.waitFor();
    const status = Number((await row.locator('.response-col_status').textContent())?.trim());
    const body = (await row.locator('.highlight-code pre').textContent()) ?? '';
    const headers: Record<string, string> = {};
    for (const line of await row.locator('.headerline').allTextContents()) {
      const separator = line.indexOf(':');
      if (separator > 0) headers[line.slice(0, separator).trim().toLowerCase()] = line.slice(separator + 1).trim();
    }
    return { status, body, headers };
  }
}
