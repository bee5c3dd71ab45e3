// The root README's package diagram, drawn from scripts/packageArrows.cjs (the arrows the
// dependency checker enforces): `node scripts/packageDiagram.mjs --write` rewrites the block between
// its markers; scripts/architecture.test.mjs fails when the README's block is not this drawing.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const { packageArrows, testOnly } = createRequire(import.meta.url)('./packageArrows.cjs');
const runtimeArrows = Object.fromEntries(
  Object.entries(packageArrows).map(([from, tos]) => [from, tos.filter((to) => !(testOnly[from] ?? []).includes(to))]),
);
export const readmePath = fileURLToPath(new URL('../README.md', import.meta.url));
const begin = '<!-- package diagram: drawn by scripts/packageDiagram.mjs from scripts/packageArrows.cjs -->';
const end = '<!-- end of package diagram -->';

const audiences = [
  ['API users', ['client', 'mock', 'conformance', 'docs']],
  ['the service', ['server', 'key-pages']],
  ['key holders', ['account-pages']],
  ['the operator', ['operator', 'cluster']],
  ['shared below', ['accounts', 'service-base', 'corpus', 'database', 'text-rules', 'contract']],
  ['checks', ['bench', 'consumer']],
];

/**
 * Arrows implied by others (a -> b when a -> c -> ... -> b) are left out, so the picture stays
 * readable; an import from tests only is dotted.
 */
export function drawnArrows() {
  const reaches = (from, to, skip) =>
    runtimeArrows[from].some((next) => next !== skip && (next === to || reaches(next, to, undefined)));
  const solid = Object.entries(runtimeArrows).flatMap(([from, tos]) =>
    tos.filter((to) => !reaches(from, to, to)).map((to) => [from, '-->', to]),
  );
  const dotted = Object.entries(testOnly).flatMap(([from, tos]) => tos.map((to) => [from, '-. tests .->', to]));
  return [...solid, ...dotted];
}

export function diagram() {
  const id = (name) => name.replace('-', '_');
  const lines = ['```mermaid', 'flowchart TD'];
  for (const [title, names] of audiences) {
    lines.push(`  subgraph ${id(title.replaceAll(' ', '_'))}["${title}"]`);
    for (const name of names) lines.push(`    ${id(name)}["@quotes/${name}"]`);
    lines.push('  end');
  }
  for (const [from, arrow, to] of drawnArrows()) lines.push(`  ${id(from)} ${arrow} ${id(to)}`);
  lines.push('```');
  return [begin, ...lines, end].join('\n');
}

export function readmeDiagram() {
  const text = readFileSync(readmePath, 'utf8');
  const from = text.indexOf(begin);
  const to = text.indexOf(end);
  return from < 0 || to < 0 ? undefined : text.slice(from, to + end.length);
}

if (process.argv.includes('--write')) {
  const text = readFileSync(readmePath, 'utf8');
  const current = readmeDiagram();
  if (!current) throw new Error(`README.md has no ${begin} ... ${end} block`);
  writeFileSync(readmePath, text.replace(current, diagram()));
}
