import { describe, expect, it } from 'vitest';
import { type PostAnswer, post, requestBody } from '../../testing/keyRequestClient.js';
import { recipientsOf, keyRequestService } from './confirmationLinks.js';

// A robot that fills the hidden field must not learn it was caught: its posts are answered as
// any other's, in about the same time, and meet the same bounds.
const service = keyRequestService();

const ask = (email: string, from: string, trapped: boolean) =>
  post(
    `${service.server.url}/keys/requests`,
    requestBody({ email, ...(trapped ? { homepage: 'https://spam.example' } : {}) }),
    { localAddress: from },
  );

/** What a client can see of an answer, less what differs between any two answers (date, request id). */
function visible(answer: PostAnswer) {
  const { date: _date, 'x-request-id': _id, ...headers } = answer.headers;
  return { status: answer.status, headers, text: answer.text };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

describe('a post that fills the hidden field', { timeout: 60_000 }, () => {
  it('is answered exactly as a real one, and mails nothing', async () => {
    const real = await ask('real@example.com', '127.80.0.1', false);
    const trapped = await ask('robot@example.com', '127.80.1.1', true);
    expect(visible(trapped)).toEqual(visible(real));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(service.inbox.messages.flatMap(recipientsOf)).not.toContain('robot@example.com');
  });

  it('counts against the bounds of its address, network and e-mail address like a real one', async () => {
    // Five trapped posts use the address's hour: the sixth post, a real one, is refused.
    const statuses = [];
    for (let index = 0; index < 5; index++)
      statuses.push((await ask(`bot${index}@example.com`, '127.81.0.1', true)).status);
    statuses.push((await ask('person@example.com', '127.81.0.1', false)).status);
    statuses.push((await ask('bot5@example.com', '127.81.0.1', true)).status);
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429, 429]);
    // Per e-mail address: a robot naming someone's address three times uses that person's hour.
    const byEmail = [];
    for (let index = 0; index < 4; index++)
      byEmail.push((await ask('named@example.com', `127.82.${index}.1`, index < 3)).status);
    expect(byEmail).toEqual([202, 202, 202, 429]);
    // Per network: ten trapped posts from ten addresses of one /24 leave the eleventh none.
    const byNetwork = [];
    for (let index = 1; index <= 11; index++)
      byNetwork.push((await ask(`net${index}@example.com`, `127.84.0.${index}`, index <= 10)).status);
    expect(byNetwork).toEqual([...Array(10).fill(202), 429]);
  });

  it('takes about as long as a real one (the same awaited path, the mail after the answer)', async () => {
    const times = { real: [] as number[], trapped: [] as number[] };
    for (let index = 0; index < 24; index++) {
      const trapped = index % 2 === 1;
      // Each post alone, timed as a client elsewhere sees it: the SMTP server runs in this same
      // process, so it holds its greeting until the answer is read (a mail sent before the answer
      // would then never let it come), and the previous post's mail has arrived.
      const mailed = service.inbox.messages.length;
      const release = service.inbox.hold();
      const started = performance.now();
      const answer = await ask(`timing${index}@example.com`, `127.83.${index}.1`, trapped);
      times[trapped ? 'trapped' : 'real'].push(performance.now() - started);
      release();
      expect(answer.status).toBe(202);
      if (!trapped) await service.inbox.waitFor(mailed + 1);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const ratio = median(times.trapped) / median(times.real);
    console.log(
      `honeypot timing: median real ${median(times.real).toFixed(1)} ms, trapped ${median(times.trapped).toFixed(1)} ms, ratio ${ratio.toFixed(2)}`,
    );
    // A wide band on a shared machine; a trapped post answered without the real path's work sat near 0.05.
    expect(ratio).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);
  });
});
