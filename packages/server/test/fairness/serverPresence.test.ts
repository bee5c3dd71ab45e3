import { describe, expect, it } from 'vitest';
import { ServerPresence } from '../../src/fairness/serverPresence.js';

/** A presence whose messages are kept, on a clock the test moves. */
function presence(options: { live?: () => boolean; heardAt?: () => number } = {}) {
  let now = 0;
  const sent: string[] = [];
  const subject = new ServerPresence(
    async (payload) => {
      sent.push(payload);
    },
    options.live ?? (() => true),
    { intervalMs: 1000, now: () => now, heardAt: options.heardAt },
  );
  return { subject, sent, advance: (ms: number) => (now += ms) };
}

describe('ServerPresence', () => {
  it('answers a hello at once, so a new server counts the others within a round trip', () => {
    const { subject, sent } = presence();
    subject.receive('hello:other');
    expect(sent).toEqual([`here:${subject.id}`]);
    expect(subject.servers()).toBe(2);
    subject.receive(`here:${subject.id}`);
    expect(subject.servers()).toBe(2);
  });

  it('counts a server out at its bye, or three intervals after it was last heard from', () => {
    const { subject, advance } = presence();
    subject.receive('here:a');
    subject.receive('here:b');
    expect(subject.servers()).toBe(3);
    subject.receive('bye:a');
    expect(subject.servers()).toBe(2);
    advance(3000);
    expect(subject.servers()).toBe(2);
    advance(1);
    expect(subject.servers()).toBe(1);
  });

  it('keeps the count it had while its own notification connection is down', () => {
    let live = true;
    const { subject, advance } = presence({ live: () => live });
    subject.receive('here:a');
    live = false;
    advance(60_000);
    expect(subject.servers()).toBe(2);
  });

  it('keeps counting a peer while this server has heard nothing since (a stalled event loop)', () => {
    let heardAt = 0;
    const { subject, advance } = presence({ heardAt: () => heardAt });
    subject.receive('here:a');
    const now = advance(10_000);
    expect(subject.servers()).toBe(2);
    heardAt = now;
    expect(subject.servers()).toBe(1);
  });
});
