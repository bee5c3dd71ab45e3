import type { ContractDocument } from '@quotes/contract';

/** What the mock's reference page says in place of how to get a key. */
export const mockNote =
  '**This page is served by the mock** (`@quotes/mock`): it answers from example quotes, takes any key value as a key on one plan, and issues no keys. Keys come from the real service.';

/** Links of the description to the real service's own pages (the key-request form, the terms), which the mock does not serve. */
const servicePageLink = /\]\(\/(keys\/|terms\b)/;

/**
 * The reference as the mock serves it: it says it is the mock, and offers nothing the mock
 * cannot answer: no key-request operation (its "try it" would only reach Prism's examples, and
 * its links the real service's pages) and no paragraph linking to those pages.
 */
export function asMockReference(document: ContractDocument): ContractDocument {
  const copy = structuredClone(document);
  for (const path of Object.keys(copy.paths)) if (!path.startsWith('/v1/')) delete copy.paths[path];
  const used = new Set(
    Object.values(copy.paths).flatMap((item) =>
      Object.values(item as Record<string, { tags?: string[] }>).flatMap((operation) => operation?.tags ?? []),
    ),
  );
  const withTags = copy as { tags?: { name: string }[] };
  if (withTags.tags) withTags.tags = withTags.tags.filter((tag) => used.has(tag.name));
  const info = copy.info as { title?: string; description?: string };
  info.title = `${info.title ?? ''} (mock)`;
  const paragraphs = (info.description ?? '').split('\n\n');
  const first = paragraphs.findIndex((paragraph) => servicePageLink.test(paragraph));
  const kept = paragraphs.filter((paragraph, index) => index === first || !servicePageLink.test(paragraph));
  if (first >= 0) kept[first] = mockNote;
  else kept.unshift(mockNote);
  info.description = kept.join('\n\n');
  return copy;
}
