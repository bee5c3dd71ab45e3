import { generateCorpus, defaultCorpusSeed } from '@quotes/corpus';
import { lengthOfText } from '@quotes/contract';
const rows = [...generateCorpus({ size: 152000, seed: defaultCorpusSeed })];
const tags = (r) => [['c', r.category], ...r.moods.map((m) => ['m', m]), ['l', lengthOfText(r.text)], ['e', r.era], ['f', r.faith_tradition ?? '-']];
const pairsOf = (r) => {
  const t = tags(r); const out = [];
  for (let i = 0; i < t.length; i++) for (let j = i + 1; j < t.length; j++) if (t[i][0] !== t[j][0]) {
    const [a, b] = [t[i], t[j]].sort((x, y) => (x[0] + x[1] < y[0] + y[1] ? -1 : 1));
    out.push(`${a[0]}=${a[1]}|${b[0]}=${b[1]}`);
  }
  for (const x of t) out.push(`${x[0]}=${x[1]}`);
  return out;
};
const rp = rows.map(pairsOf);
const big = new Map();
for (const ps of rp) for (const p of ps) big.set(p, (big.get(p) ?? 0) + 1);
for (const [single, share, common, rare] of [[11, 0.002, 11, 1], [11, 0.002, 6, 1], [11, 0.005, 11, 1], [11, 0.003, 11, 1], [11,0.0024,11,1], [11, 0.01, 11, 2]]) {
  const need = new Map();
  for (const [p, n] of big) need.set(p, Math.min(n, p.includes('|') ? (n / rows.length >= share ? common : rare) : single));
  const have = new Map();
  const gain = (i) => { let g = 0; for (const p of rp[i]) { const d = need.get(p) - (have.get(p) ?? 0); if (d > 0) g += d / need.get(p); } return g; };
  // lazy greedy over a max-heap of stale gains; ties broken by rank (index)
  let heap = rows.map((_, i) => [gain(i), i]).filter(([g]) => g > 0).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  const chosen = [];
  while (heap.length) {
    const [g, i] = heap[0];
    const fresh = gain(i);
    if (fresh <= 0) { heap.shift(); continue; }
    if (heap.length > 1 && fresh < heap[1][0] - 1e-12) { heap[0] = [fresh, i]; heap.sort((a, b) => b[0] - a[0] || a[1] - b[1]); continue; }
    heap.shift(); chosen.push(i); for (const p of rp[i]) have.set(p, (have.get(p) ?? 0) + 1);
  }
  const unmet = [...need].filter(([p, n]) => (have.get(p) ?? 0) < n).length;
  console.log({ single, share, common, rare, chosen: chosen.length, unmet, grief: have.get('c=Grief & Loss|e=Ancient'), em: have.get('e=Early Modern|l=Medium'), tao: have.get('f=Taoist|m=reflective'), insp: have.get('m=inspirational'), bytes: JSON.stringify(chosen.map(i=>rows[i])).length });
}
