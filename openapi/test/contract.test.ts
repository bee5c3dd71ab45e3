import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lengthOfText, loadContract, problemTypePrefix, taxonomy } from '../src/index.js';

describe('the contract', () => {
  it('declares the four read-only /v1 operations and the key request, with their operationIds', () => {
    const operations = Object.entries(loadContract().paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`),
    );
    expect(operations.sort()).toEqual([
      'GET /v1/quotes-categories listFilterValues',
      'GET /v1/quotes-filter listQuotes',
      'GET /v1/quotes-random getRandomQuote',
      'GET /v1/quotes-usage getUsage',
      'POST /keys/requests requestKey',
    ]);
  });

  it('gives its version to the packages built from it, and keeps that version as a release', () => {
    const { version } = loadContract().info;
    const manifest = (path: string) =>
      JSON.parse(readFileSync(new URL(`../../${path}/package.json`, import.meta.url), 'utf8')) as {
        version: string;
        peerDependencies?: Record<string, string>;
      };
    for (const path of ['openapi', 'packages/client', 'packages/mock', 'packages/conformance'])
      expect(`${path} ${manifest(path).version}`).toBe(`${path} ${version}`);
    // The suite offers to check the mock of its own version; another would not install beside it.
    expect(manifest('packages/conformance').peerDependencies?.['@quotes/mock']).toBe(version);
    expect(readFileSync(new URL(`../releases/${version}.yaml`, import.meta.url), 'utf8')).toContain(
      `version: ${version}`,
    );
  });

  it('holds the taxonomy the product promises', () => {
    expect(taxonomy.categories).toHaveLength(43);
    expect(new Set(taxonomy.categories).size).toBe(43);
    expect(taxonomy.moods).toHaveLength(8);
    expect(taxonomy.eras).toEqual(['Ancient', 'Medieval', 'Early Modern', 'Modern', 'Contemporary', 'Present']);
    expect(taxonomy.lengths).toEqual(['Short', 'Medium', 'Long']);
    expect(taxonomy.faithTraditions).toHaveLength(7);
    expect(taxonomy.plans).toEqual(['trial', 'starter', 'professional', 'platform', 'enterprise']);
  });

  it('keeps the MoodList pattern in step with the Mood enum', () => {
    // The pattern necessarily spells the moods again; this test is what stops the two drifting.
    const alternatives = taxonomy.moods.join('|');
    const pattern = loadContract().components.schemas.MoodList?.pattern;
    expect(pattern).toBe(`^(${alternatives})(,(${alternatives}))*$`);
  });

  it('lists categories sorted by name, as the categories response promises', () => {
    expect([...taxonomy.categories]).toEqual([...taxonomy.categories].sort((a, b) => a.localeCompare(b, 'en')));
  });

  it('names every problem type under one prefix', () => {
    for (const type of taxonomy.problemTypes) expect(type.startsWith(problemTypePrefix)).toBe(true);
  });

  it('has an example on every parameter and every response media type', () => {
    const doc = loadContract() as unknown as {
      components: {
        parameters: Record<string, { example?: unknown }>;
        responses: Record<string, { content?: Record<string, { example?: unknown; examples?: unknown }> }>;
      };
      paths: Record<
        string,
        Record<string, { responses: Record<string, { content?: Record<string, { example?: unknown }> }> }>
      >;
    };
    for (const [name, parameter] of Object.entries(doc.components.parameters)) {
      expect(parameter.example, `parameter ${name}`).toBeDefined();
    }
    const mediaTypes = [
      ...Object.values(doc.components.responses).flatMap((r) => Object.entries(r.content ?? {})),
      ...Object.values(doc.paths).flatMap((item) =>
        Object.values(item).flatMap((op) =>
          Object.values(op.responses).flatMap((r) => Object.entries(r.content ?? {})),
        ),
      ),
    ];
    for (const [type, media] of mediaTypes) {
      expect(media.example ?? (media as { examples?: unknown }).examples, type).toBeDefined();
    }
  });
});

describe('lengthOfText', () => {
  it('counts characters, not bytes or UTF-16 units', () => {
    expect(lengthOfText('a'.repeat(99))).toBe('Short');
    expect(lengthOfText('a'.repeat(100))).toBe('Medium');
    expect(lengthOfText('a'.repeat(200))).toBe('Medium');
    expect(lengthOfText('a'.repeat(201))).toBe('Long');
    // 99 emoji are 198 UTF-16 units and 396 bytes, but 99 characters.
    expect(lengthOfText('😀'.repeat(99))).toBe('Short');
    expect(lengthOfText('é'.repeat(150))).toBe('Medium');
  });
});
