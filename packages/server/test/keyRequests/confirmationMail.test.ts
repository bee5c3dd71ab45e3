import { describe, expect, it } from 'vitest';
import { confirmationLinkIn, mailTo, post, requestBody } from '../../testing/keyRequestClient.js';
import { pressConfirm, keyRequestService } from './confirmationLinks.js';

// Anyone can ask for a key for any address. Until the address is confirmed, what it receives
// (the mail, the page its link opens) must carry none of the words the asker typed: the mail
// would otherwise deliver a stranger's text, under the service's name, to anyone.
const service = keyRequestService();

const stranger = {
  name: 'customer. URGENT: your account is locked, verify at https://quotes-login.example/verify',
  application: 'Account recovery: call +1 555 0100 now',
  use: 'Reply with your password to keep your account https://quotes-login.example/keep',
};
const strangerWords = ['URGENT', 'quotes-login.example', 'account', '555 0100', 'password', 'customer'];

describe('mail to an address not yet confirmed', { timeout: 30_000 }, () => {
  it('carries none of the free text a stranger chose; the confirmed address gets its own words back', async () => {
    const email = 'victim@example.com';
    const answer = await post(`${service.server.url}/keys/requests`, requestBody({ email, ...stranger }), {
      localAddress: '127.70.0.1',
    });
    expect(answer.status).toBe(202);
    const mail = await mailTo(service.inbox, email, /^Confirm your request/);
    for (const part of [mail.subject ?? '', mail.text ?? '', String(mail.html)])
      for (const word of strangerWords) expect(part.toLowerCase()).not.toContain(word.toLowerCase());
    expect(mail.text).toContain('trial plan');

    // The page the link opens is seen before the confirmation too.
    const link = confirmationLinkIn(mail)!;
    const page = await (await fetch(link)).text();
    // The page's own header links to /account; what the stranger could have put there is the main part.
    const main = page.slice(page.indexOf('<main>'));
    expect(main).toContain('</main>');
    for (const word of strangerWords) expect(main.toLowerCase()).not.toContain(word.toLowerCase());
    expect(page).toContain(email);

    // Confirmed: the address is the asker's own, and the key's mail names the application.
    expect((await pressConfirm(service.server.url, new URL(link).searchParams.get('token')!)).status).toBe(200);
    const keyMail = await mailTo(service.inbox, email, /API key \(trial plan\)/);
    expect(keyMail.text).toContain(stranger.application);
  });
});
