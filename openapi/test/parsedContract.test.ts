import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { contractDigest, contractPath, parsedContract, readContract } from '../src/contractDocument.js';

const yamlText = readFileSync(contractPath, 'utf8');

describe('the contract as the build parsed it', () => {
  it('is written by the build beside the built module, from the quotes.yaml of this checkout', () => {
    const built = JSON.parse(readFileSync(new URL('../dist/quotes.json', import.meta.url), 'utf8')) as {
      digest: string;
      document: unknown;
    };
    expect(built.digest).toBe(contractDigest(yamlText));
    expect(built.document).toEqual(parse(yamlText));
  });

  it('is read when it was parsed from the same text, and the YAML parsed anew when the text changed since', () => {
    const edited = yamlText.replace(/^(\s+title:) .*$/m, '$1 Edited since the build');
    expect(edited).not.toBe(yamlText);
    const stale = JSON.stringify(parsedContract(yamlText));
    expect(readContract(yamlText, stale)).toEqual(parse(yamlText));
    expect(readContract(edited, stale)).toEqual(parse(edited));
    expect((readContract(edited, stale) as { info: { title: string } }).info.title).toBe('Edited since the build');
    // Read, not parsed: a document the YAML would never give back shows which one was taken.
    const marked = JSON.stringify({ digest: contractDigest(yamlText), document: { marked: true } });
    expect(readContract(yamlText, marked)).toEqual({ marked: true });
    expect(readContract(yamlText, undefined)).toEqual(parse(yamlText));
  });
});
