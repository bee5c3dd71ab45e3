import type { ParsedMail } from 'mailparser';
import type { SmtpInbox } from './smtpInbox.js';

/** The first message to `address` matching `subject` among those after the first `after` (10 s at most). */
export async function newMailTo(
  inbox: SmtpInbox,
  after: number,
  address: string,
  subject: RegExp,
): Promise<ParsedMail> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = inbox.messages
      .slice(after)
      .find(
        (mail) =>
          (Array.isArray(mail.to) ? mail.to : [mail.to]).some(
            (to) => to?.text.toLowerCase() === address.toLowerCase(),
          ) && subject.test(mail.subject ?? ''),
      );
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no new mail to ${address} matching ${subject} within 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The sign-in link in a mail of the holders' page. */
export const signInLinkIn = (mail: ParsedMail) =>
  /https?:\/\/\S+\/account\/sign-in\?token=[A-Za-z0-9_-]+/.exec(mail.text ?? '')?.[0];

export interface AccountAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

/** The hidden CSRF field of the first form on a page. */
export const csrfIn = (page: string) => /name="_csrf" value="([^"]+)"/.exec(page)?.[1] ?? '';

/**
 * A browser's part in the holders' page without a browser: a cookie jar, forms posted as a
 * browser posts them (urlencoded), redirects not followed (a test reads each answer). Each
 * request has a connection of its own (`Connection: close`): fetch would otherwise send it on a
 * kept-alive connection that the server, in this same process, may be closing after its 5 idle
 * seconds, and on a loaded machine the event loop's lag eats fetch's margin before that close
 * (a reset seen on the first post of a property run, with an empty body). A reset is then the
 * server's doing, never the kept-alive race.
 */
export class AccountClient {
  readonly cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  private remember(headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at);
      const value = pair!.slice(at + 1);
      if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  private cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async get(path: string): Promise<AccountAnswer> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      headers: { Cookie: this.cookieHeader(), Accept: 'text/html', Connection: 'close' },
      redirect: 'manual',
    });
    this.remember(response.headers);
    return { status: response.status, headers: response.headers, text: await response.text() };
  }

  /** A form posted as a browser posts it; `headers` adds what that browser sends besides (Origin, Sec-Fetch-Site). */
  async post(
    path: string,
    fields: Record<string, string> | string,
    headers: Record<string, string> = {},
  ): Promise<AccountAnswer> {
    const body = typeof fields === 'string' ? fields : new URLSearchParams(fields).toString();
    const response = await fetch(`${this.baseUrl}${path}`, {
      method: 'POST',
      headers: {
        Cookie: this.cookieHeader(),
        Accept: 'text/html',
        Connection: 'close',
        'Content-Type': 'application/x-www-form-urlencoded',
        ...headers,
      },
      body,
      redirect: 'manual',
    });
    this.remember(response.headers);
    return { status: response.status, headers: response.headers, text: await response.text() };
  }

  /** Asks for a sign-in link for `email` from the form, as a person would. */
  async askForLink(email: string): Promise<AccountAnswer> {
    const form = await this.get('/account');
    return this.post('/account/sign-in-link', { _csrf: csrfIn(form.text), email });
  }

  /** Opens a mailed link and presses its button. */
  async useLink(link: string): Promise<AccountAnswer> {
    const page = await this.get(new URL(link).pathname + new URL(link).search);
    if (page.status !== 200) return page;
    return this.post('/account/sign-in', {
      _csrf: csrfIn(page.text),
      token: new URL(link).searchParams.get('token') ?? '',
    });
  }

  /** The whole sign-in: ask, read the mail, open the link, press the button. */
  async signIn(inbox: SmtpInbox, email: string): Promise<void> {
    const before = inbox.messages.length;
    await this.askForLink(email);
    const mail = await newMailTo(inbox, before, email, /^Sign in to your/);
    const answer = await this.useLink(signInLinkIn(mail)!);
    if (answer.status !== 303) throw new Error(`sign-in answered ${answer.status}`);
  }
}
