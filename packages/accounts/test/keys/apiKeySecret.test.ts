import { describe, expect, it } from 'vitest';
import {
  displayPrefix,
  generateApiKey,
  generateKeyId,
  hashApiKey,
  looksLikeApiKey,
  randomBase62,
} from '../../src/keys/apiKeySecret.js';

describe('API keys', () => {
  it('carry the qk_ prefix and at least 128 bits of randomness', () => {
    const key = generateApiKey();
    expect(key).toMatch(/^qk_[A-Za-z0-9]{24}$/);
    expect(24 * Math.log2(62)).toBeGreaterThanOrEqual(128);
    expect(new Set(Array.from({ length: 1000 }, generateApiKey)).size).toBe(1000);
  });

  it('use every base62 character about equally (no modulo bias)', () => {
    const counts = new Map<string, number>();
    for (const character of randomBase62(62_000)) counts.set(character, (counts.get(character) ?? 0) + 1);
    expect(counts.size).toBe(62);
    for (const count of counts.values()) expect(count).toBeGreaterThan(800);
  });

  it('are stored as a SHA-256 hash and shown by a short prefix', () => {
    const key = generateApiKey();
    expect(hashApiKey(key)).toHaveLength(32);
    expect(hashApiKey(key).equals(hashApiKey(key))).toBe(true);
    expect(displayPrefix(key)).toBe(key.slice(0, 11));
  });

  it('are recognised by shape before any look-up', () => {
    expect(looksLikeApiKey(generateApiKey())).toBe(true);
    expect(looksLikeApiKey('qk_short')).toBe(false);
    expect(looksLikeApiKey(`xx_${'a'.repeat(24)}`)).toBe(false);
    expect(generateKeyId()).toMatch(/^k_[A-Za-z0-9]{12}$/);
  });
});
