import { describe, expect, it } from 'vitest';
import { KeyDemand, keyHash } from '../../src/fairness/keyDemand.js';

/** Demand whose messages are kept, on a clock the test moves, with 3 servers live. */
function keyDemand(options: { live?: () => boolean; heardAt?: () => number } = {}) {
  let now = 0;
  const sent: string[] = [];
  const subject = new KeyDemand(
    'self',
    async (payload) => {
      sent.push(payload);
    },
    options.live ?? (() => true),
    () => 3,
    { intervalMs: 1000, settleMs: 250, batchMs: 20, now: () => now, heardAt: options.heardAt },
  );
  return { subject, sent, advance: (ms: number) => (now += ms) };
}

const k = keyHash('key-1');
const k2 = keyHash('key-2');
const batch = () => new Promise((resolve) => setTimeout(resolve, 40));

describe('KeyDemand', () => {
  it('sends only short hashes of key ids, never the id', () => {
    expect(k).toMatch(/^[A-Za-z0-9_-]{11}$/);
    expect(k2).not.toBe(k);
  });

  it('gives a key offered to no peer the whole rate once it has settled', () => {
    const { subject, advance } = keyDemand();
    expect(subject.offer('key-1', 25)).toBeCloseTo(25 / 3);
    advance(250);
    expect(subject.offer('key-1', 25)).toBe(25);
  });

  it('shares the rate by the peers’ reports, and widens at their gone or bye', () => {
    const { subject, advance } = keyDemand();
    subject.offer('key-1', 25);
    advance(300);
    subject.receive(`seen:a:${k2}=3,${k}`);
    subject.receive(`seen:b:${k}=30`);
    expect(subject.offer('key-1', 25)).toBeCloseTo(25 / 3);
    subject.receive(`seen:a:${k}=4`);
    expect(subject.offer('key-1', 25)).toBe(10.5);
    subject.receive(`gone:a:${k}`);
    expect(subject.offer('key-1', 25)).toBe(12.5);
    subject.receive('bye:b');
    expect(subject.offer('key-1', 25)).toBe(25);
    subject.receive(`seen:self:${k}`);
    subject.receive(`seen:c:${k}=oops`);
    expect(subject.offer('key-1', 25)).toBe(12.5);
  });

  it('lets a peer report lapse three intervals after it was sent, unless its own connection is down', () => {
    let live = true;
    const { subject, advance } = keyDemand({ live: () => live });
    subject.offer('key-1', 20);
    subject.receive(`seen:a:${k}`);
    advance(3000);
    expect(subject.offer('key-1', 20)).toBe(10);
    advance(1);
    expect(subject.offer('key-1', 20)).toBe(20);
    subject.receive(`seen:a:${k}`);
    live = false;
    advance(60_000);
    expect(subject.offer('key-1', 20)).toBe(10);
  });

  it('keeps a peer report while this server has heard nothing since: a stalled event loop is not a gone peer', () => {
    let now = 0;
    let heardAt = 0;
    const { subject, advance } = keyDemand({ heardAt: () => heardAt });
    const step = (ms: number) => (now = advance(ms));
    subject.offer('key-1', 25);
    subject.receive(`seen:a:${k}`);
    subject.receive(`seen:b:${k}`);
    // A 10 s stall: the peers' reports wait unread on the connection, and the first calls after it
    // (and the interval's report, whose timer runs first) still see them.
    step(10_000);
    subject.report();
    expect(subject.offer('key-1', 25)).toBeCloseTo(25 / 3);
    // Heard the connection again, nothing from the peers for three intervals past their reports: gone.
    heardAt = now;
    expect(subject.offer('key-1', 25)).toBe(25);
  });

  it('sends a first sighting within the batch, each key’s rate every interval, then gone, then forgets', async () => {
    const { subject, sent, advance } = keyDemand();
    subject.offer('key-1', 25);
    subject.offer('key-2', 25);
    await batch();
    expect(sent).toEqual([`seen:self:${k},${k2}`]);
    sent.length = 0;
    for (let call = 0; call < 4; call++) {
      advance(250);
      subject.offer('key-1', 25);
    }
    subject.report();
    expect(sent).toEqual([`seen:self:${k}=5,${k2}=1`]);
    sent.length = 0;
    advance(1000);
    subject.offer('key-1', 25);
    subject.report();
    expect(sent).toEqual([`seen:self:${k}=1`, `gone:self:${k2}`]);
    sent.length = 0;
    advance(1000);
    subject.report();
    expect(sent).toEqual([`gone:self:${k}`]);
    expect(subject.trackedKeys).toBe(0);
    subject.stop();
  });

  it('reports a rise at once, not at the interval', async () => {
    const { subject, sent, advance } = keyDemand();
    subject.offer('key-1', 25);
    advance(1000);
    subject.report();
    await batch();
    sent.length = 0;
    advance(100);
    for (let call = 0; call < 10; call++) subject.offer('key-1', 25);
    await batch();
    expect(sent).toEqual([]);
    advance(100);
    subject.offer('key-1', 25);
    await batch();
    expect(sent).toEqual([`seen:self:${k}=55`]);
    subject.stop();
  });

  it('answers a new server’s hello with what it sees', () => {
    const { subject, sent, advance } = keyDemand();
    subject.offer('key-1', 25);
    sent.length = 0;
    subject.receive('hello:new');
    expect(sent).toEqual([`seen:self:${k}`]);
    advance(1000);
    subject.report();
    sent.length = 0;
    subject.receive('hello:new');
    expect(sent).toEqual([`seen:self:${k}=1`]);
    subject.stop();
  });

  it('splits a long list into payloads NOTIFY accepts (8000 bytes)', () => {
    const { subject, sent, advance } = keyDemand();
    for (let key = 0; key < 2000; key++) subject.offer(`key-${key}`, 25);
    advance(1000);
    subject.report();
    expect(sent.length).toBeGreaterThan(2);
    expect(Math.max(...sent.map((payload) => Buffer.byteLength(payload)))).toBeLessThanOrEqual(8000);
    const hashes = sent.flatMap((payload) => payload.split(':')[2]!.split(','));
    expect(new Set(hashes).size).toBe(2000);
    subject.stop();
  });
});
