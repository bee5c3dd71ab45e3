import type { Config } from '@quotes/service-base';
import { originAllowed } from './allowedOrigins.js';
import { parsePageSighting } from './callSightings.js';

/** What the signs of broken terms take as unusual; each configurable (USAGE_SIGNAL_*). */
export interface SignalThresholds {
  /** Consecutive pages of one filter walked by one key in a month. */
  sweepPages: number;
  /** Distinct client networks (/24, /48) of one key in one day. */
  networksPerDay: number;
  /** Distinct browser origins of one key in one day. */
  originsPerDay: number;
  /** Trial keys used from one network, created within `trialWindowDays` of each other. */
  trialsPerNetwork: number;
  trialWindowDays: number;
  /** Distinct quotes served to one key in a month, as a share of the corpus (percent). */
  coveragePercent: number;
}

export const defaultSignalThresholds: SignalThresholds = Object.freeze({
  sweepPages: 20,
  networksPerDay: 5,
  originsPerDay: 4,
  trialsPerNetwork: 3,
  trialWindowDays: 30,
  // A professional key spending its 50,000 calls on random quotes reaches 28% of 152,000
  // (1 - e^(-50,000/152,000)), a starter key 6%: only paging far on, or unlimited keys, pass 35%.
  coveragePercent: 35,
});

export interface Sighting {
  keyId: string;
  /** YYYY-MM-DD */
  day: string;
  kind: 'network' | 'origin' | 'page';
  value: string;
}

/**
 * One finding: a key's sweep, coverage or sharing, or one network's rotated trials. `subject`
 * is what it is filed (and mailed once a month) under: the key, or for rotated trials the network.
 */
export interface Signal {
  subject: string;
  signal: 'coverage' | 'sweep' | 'sharing' | 'trial-rotation';
  /** Every key and every request (asked for, confirmed, not yet a key) the finding involves. */
  involves: { keys: string[]; requests: string[] };
  /** The evidence in words, with its figures. */
  evidence: string;
  figures: Record<string, number | string>;
}

const dayMs = 86_400_000;
const sample = (values: readonly string[], count = 5) =>
  values.length <= count ? values.join(', ') : `${values.slice(0, count).join(', ')} and ${values.length - count} more`;
const groupBy = <T>(items: readonly T[], keyOf: (item: T) => string) => {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
};

/** The longest run of pages each following the last (offset = previous offset + limit), of one filter and page size. */
function longestWalk(pages: readonly { offset: number; limit: number }[]): {
  pages: number;
  from: number;
  to: number;
  limit: number;
} {
  let best = { pages: 0, from: 0, to: 0, limit: 0 };
  for (const [, sameLimit] of groupBy(pages, (page) => String(page.limit))) {
    const limit = sameLimit[0]!.limit;
    const offsets = [...new Set(sameLimit.map((page) => page.offset))].sort((a, b) => a - b);
    let runStart = 0;
    for (let index = 0; index < offsets.length; index++) {
      if (index > 0 && offsets[index] !== offsets[index - 1]! + limit) runStart = index;
      const length = index - runStart + 1;
      if (length > best.pages) best = { pages: length, from: offsets[runStart]!, to: offsets[index]!, limit };
    }
  }
  return best;
}

const figure = (value: number) => value.toLocaleString('en-US');
const plural = (value: number, noun: string) => `${figure(value)} ${noun}${value === 1 ? '' : 's'}`;

/**
 * Corpus coverage: a key served at least `coveragePercent` of the corpus, in distinct quotes, in
 * the month. Its calls stand beside the figure: random draws give at most one quote a call.
 */
export function coverageSignals(
  coverage: readonly { keyId: string; quotes: number }[],
  corpusSize: number,
  calls: ReadonlyMap<string, number>,
  thresholds: SignalThresholds,
): Signal[] {
  if (corpusSize <= 0) return [];
  return coverage
    .filter((key) => key.quotes * 100 >= thresholds.coveragePercent * corpusSize)
    .map(({ keyId, quotes }) => {
      const percent = Math.floor((quotes * 100) / corpusSize);
      const served = calls.get(keyId) ?? 0;
      return {
        subject: keyId,
        signal: 'coverage' as const,
        involves: { keys: [keyId], requests: [] },
        evidence: `served ${figure(quotes)} distinct quotes, ${percent}% of the ${figure(corpusSize)} in the corpus, in ${figure(served)} counted calls; threshold ${thresholds.coveragePercent}%`,
        figures: { quotes, corpus: corpusSize, percent, calls: served },
      };
    });
}

/** A sweep: a key that walked at least `sweepPages` consecutive pages of one filter in the month. */
export function sweepSignals(sightings: readonly Sighting[], thresholds: SignalThresholds): Signal[] {
  const signals: Signal[] = [];
  const pages = sightings.filter((sighting) => sighting.kind === 'page');
  for (const [keyId, ofKey] of groupBy(pages, (sighting) => sighting.keyId)) {
    let worst: { filters: string; walk: ReturnType<typeof longestWalk> } | undefined;
    const parsed = ofKey.flatMap((sighting) => parsePageSighting(sighting.value) ?? []);
    for (const [filters, ofFilter] of groupBy(parsed, (page) => page.filters)) {
      const walk = longestWalk(ofFilter);
      if (!worst || walk.pages > worst.walk.pages) worst = { filters, walk };
    }
    if (!worst || worst.walk.pages < thresholds.sweepPages) continue;
    const { filters, walk } = worst;
    const quotes = walk.pages * walk.limit;
    signals.push({
      subject: keyId,
      signal: 'sweep',
      involves: { keys: [keyId], requests: [] },
      evidence: `walked ${walk.pages} consecutive pages of ${filters === '' ? 'all quotes (no filter)' : filters} (offsets ${walk.from} to ${walk.to}, ${walk.limit} a page: up to ${quotes} quotes); threshold ${thresholds.sweepPages} pages`,
      figures: { pages: walk.pages, filters, fromOffset: walk.from, toOffset: walk.to, pageSize: walk.limit, quotes },
    });
  }
  return signals;
}

/** The distinct values of one kind of a day's sightings, sorted: a network seen twice is one network. */
const distinct = (sightings: readonly Sighting[], kind: Sighting['kind']) =>
  [...new Set(sightings.filter((s) => s.kind === kind).map((s) => s.value))].sort();

/**
 * Sharing: a key seen from at least `networksPerDay` networks, or `originsPerDay` origins, in one
 * day. On a day the key is seen from one network at most, the origins its holder allowed
 * (`allowedOriginsOf`, e.g. `http://localhost:*` for any dev server's port) are the holder's own
 * pages, not a sign of sharing, and are left out of the count.
 */
export function sharingSignals(
  sightings: readonly Sighting[],
  thresholds: SignalThresholds,
  allowedOriginsOf: (keyId: string) => readonly string[] = () => [],
): Signal[] {
  const signals: Signal[] = [];
  const seen = sightings.filter((sighting) => sighting.kind !== 'page');
  for (const [keyId, ofKey] of groupBy(seen, (sighting) => sighting.keyId)) {
    let worst: { day: string; networks: string[]; origins: string[]; score: number } | undefined;
    for (const [day, ofDay] of groupBy(ofKey, (sighting) => sighting.day)) {
      const networks = distinct(ofDay, 'network');
      const allowed = allowedOriginsOf(keyId);
      const origins = distinct(ofDay, 'origin').filter(
        (origin) => networks.length > 1 || !originAllowed(allowed, origin),
      );
      const score = Math.max(networks.length / thresholds.networksPerDay, origins.length / thresholds.originsPerDay);
      if (!worst || score > worst.score) worst = { day, networks, origins, score };
    }
    if (!worst || worst.score < 1) continue;
    signals.push({
      subject: keyId,
      signal: 'sharing',
      involves: { keys: [keyId], requests: [] },
      evidence: `on ${worst.day} used from ${plural(worst.networks.length, 'network')} (${sample(worst.networks)}) and ${plural(worst.origins.length, 'browser origin')}${worst.origins.length ? ` (${sample(worst.origins)})` : ''}; thresholds ${thresholds.networksPerDay} networks or ${thresholds.originsPerDay} origins a day`,
      figures: { day: worst.day, networks: worst.networks.length, origins: worst.origins.length },
    });
  }
  return signals;
}

/** A trial: a trial key, or a confirmed request for one that is not (yet) a key. */
export interface Trial {
  id: string;
  kind: 'key' | 'request';
  createdAt: Date;
}

/**
 * Trial rotation: at least `trialsPerNetwork` trials, created within `trialWindowDays` of each
 * other, used or asked for from one network. One finding per network, naming every trial of
 * every such window: nine trials from one network are one finding, not nine.
 */
export function trialRotationSignals(
  sightings: readonly Sighting[],
  trials: readonly Trial[],
  thresholds: SignalThresholds,
): Signal[] {
  const byId = new Map(trials.map((trial) => [trial.id, trial]));
  const created = (id: string) => byId.get(id)!.createdAt.getTime();
  const signals: Signal[] = [];
  const networks = sightings.filter((sighting) => sighting.kind === 'network' && byId.has(sighting.keyId));
  for (const [network, ofNetwork] of groupBy(networks, (sighting) => sighting.value)) {
    const ids = [...new Set(ofNetwork.map((sighting) => sighting.keyId))].sort(
      (a, b) => created(a) - created(b) || a.localeCompare(b),
    );
    const involved = new Set<string>();
    for (let first = 0; first < ids.length; first++) {
      const within = ids.filter(
        (id) =>
          created(id) >= created(ids[first]!) &&
          created(id) - created(ids[first]!) <= thresholds.trialWindowDays * dayMs,
      );
      if (within.length >= thresholds.trialsPerNetwork) for (const id of within) involved.add(id);
    }
    if (involved.size === 0) continue;
    const named = ids.filter((id) => involved.has(id));
    const keys = named.filter((id) => byId.get(id)!.kind === 'key');
    const requests = named.filter((id) => byId.get(id)!.kind === 'request');
    const asked = requests.length ? ` (${requests.length} of them confirmed requests not yet keys)` : '';
    signals.push({
      subject: network,
      signal: 'trial-rotation',
      involves: { keys, requests },
      evidence: `${named.length} trials${asked} created within ${thresholds.trialWindowDays} days of each other and used or asked for from ${network}: ${sample(named)}; threshold ${thresholds.trialsPerNetwork} trials`,
      figures: { network, trials: named.length, keys: keys.length, requests: requests.length },
    });
  }
  return signals;
}

type SignalSettings = Pick<
  Config,
  | 'USAGE_SIGNAL_SWEEP_PAGES'
  | 'USAGE_SIGNAL_NETWORKS_PER_DAY'
  | 'USAGE_SIGNAL_ORIGINS_PER_DAY'
  | 'USAGE_SIGNAL_TRIALS_PER_NETWORK'
  | 'USAGE_SIGNAL_COVERAGE_PERCENT'
>;

/** The thresholds of the signs of broken terms. */
export function signalThresholdsOf(config: SignalSettings): SignalThresholds {
  return {
    sweepPages: config.USAGE_SIGNAL_SWEEP_PAGES,
    networksPerDay: config.USAGE_SIGNAL_NETWORKS_PER_DAY,
    originsPerDay: config.USAGE_SIGNAL_ORIGINS_PER_DAY,
    trialsPerNetwork: config.USAGE_SIGNAL_TRIALS_PER_NETWORK,
    coveragePercent: config.USAGE_SIGNAL_COVERAGE_PERCENT,
    trialWindowDays: defaultSignalThresholds.trialWindowDays,
  };
}
