import { describe, expect, it } from 'vitest';
import { keyHash, KeySightings } from '../../src/fairness/keySightings.js';

/** Sightings whose messages are kept, on a clock the test moves, with `live` servers known. */
function sightings(options: { live?: () => boolean; servers?: number } = {}) {
  let now = 0;
  const sent: string[] = [];
  const subject = new KeySightings(
    'self',
    async (payload) => {
      sent.push(payload);
    },
    options.live ?? (() => true),
    () => options.servers ?? 3,
    { intervalMs: 1000, settleMs: 250, batchMs: 50, now: () => now },
  );
  return { subject, sent, advance: (ms: number) => (now += ms) };
}

const k = keyHash('key-1');

describe('KeySightings', () => {
  it('sends only short hashes of key ids, never the id', () => {
    expect(k).toMatch(/^[A-Za-z0-9_-]{11}$/);
    expect(keyHash('key-2')).not.toBe(k);
  });

  it('gives a key seen by no peer the whole rate once it has settled', () => {
    const { subject, advance } = sightings();
    expect(subject.offer('key-1', 25)).toBeCloseTo(25 / 3);
    advance(250);
    expect(subject.offer('key-1', 25)).toBe(25);
  });

  it('divides the rate by the servers reporting the key, and widens at their gone or bye', () => {
    const { subject, advance } = sightings();
    subject.offer('key-1', 25);
    advance(300);
    subject.receive(`seen:a:${keyHash('other')},${k}`);
    subject.receive(`seen:b:${k}`);
    expect(subject.offer('key-1', 25)).toBeCloseTo(25 / 3);
    subject.receive(`gone:a:${k}`);
    expect(subject.offer('key-1', 25)).toBe(12.5);
    subject.receive('bye:b');
    expect(subject.offer('key-1', 25)).toBe(25);
    subject.receive(`seen:self:${k}`);
    expect(subject.offer('key-1', 25)).toBe(25);
  });

  it('lets a peer sighting lapse three intervals after its last report, unless its own connection is down', () => {
    let live = true;
    const { subject, advance } = sightings({ live: () => live });
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

  it('announces a first sighting within the batch, reports seen keys each interval, then gone, then forgets', async () => {
    const { subject, sent, advance } = sightings();
    subject.offer('key-1', 25);
    subject.offer('key-2', 25);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(sent).toEqual([`seen:self:${k},${keyHash('key-2')}`]);
    sent.length = 0;
    advance(1000);
    subject.offer('key-1', 25);
    subject.report();
    expect(sent).toEqual([`seen:self:${k},${keyHash('key-2')}`]);
    sent.length = 0;
    subject.report();
    expect(sent).toEqual([`gone:self:${k},${keyHash('key-2')}`]);
    expect(subject.trackedKeys).toBe(0);
    subject.stop();
  });

  it('answers a new server’s hello with the keys it sees', () => {
    const { subject, sent } = sightings();
    subject.offer('key-1', 25);
    sent.length = 0;
    subject.receive('hello:new');
    expect(sent).toEqual([`seen:self:${k}`]);
    subject.stop();
  });

  it('splits a long list into payloads NOTIFY accepts (8000 bytes)', () => {
    const { subject, sent } = sightings();
    for (let key = 0; key < 2000; key++) subject.offer(`key-${key}`, 25);
    subject.report();
    expect(sent.length).toBeGreaterThan(2);
    expect(Math.max(...sent.map((payload) => Buffer.byteLength(payload)))).toBeLessThanOrEqual(8000);
    const hashes = sent.flatMap((payload) => payload.split(':')[2]!.split(','));
    expect(new Set(hashes).size).toBe(2000);
    subject.stop();
  });
});
