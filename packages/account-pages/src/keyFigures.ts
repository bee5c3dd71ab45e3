import type { HolderKey, HolderKeys, HolderSession, HolderRequestView } from '@quotes/accounts';
import { refusalReason } from '@quotes/service-base/problems';
import { chartFigure, chartSvg, type Html, lastDays, servedAndRefused } from '@quotes/text-rules';

/** The periods the key page charts, in days. */
export const chartedDays = [30, 90] as const;

/**
 * The key page's figures: its calls per day by outcome over 30 and 90 days (one read of the
 * history, the 30 days cut from the 90), each as an SVG chart and a table, and the refused
 * calls of the longest window shown by outcome with why, under a heading naming that window.
 */
export async function keyPageParts(
  keys: HolderKeys,
  holder: HolderSession,
  key: HolderKey,
  now: Date,
): Promise<{
  charts: Html[];
  refusals: { outcome: string; reason: string; calls: number }[];
  refusalsTitle: string;
  requests: HolderRequestView[];
}> {
  // No window starts before the key's first day, and the 90 days only once there are more than 30.
  const firstDay = new Date(`${key.createdAt.slice(0, 10)}T00:00:00Z`);
  const periods = chartedDays
    .filter((_, index) => index === 0 || lastDays(now, chartedDays[index - 1]!).from > firstDay)
    .map((days) => {
      const window = lastDays(now, days);
      return window.from < firstDay
        ? {
            days,
            window: { ...window, from: firstDay },
            title: `Calls per day since the key was issued on ${key.createdAt.slice(0, 10)} (UTC)`,
            refusalsTitle: `Refused calls since ${key.createdAt.slice(0, 10)} (UTC)`,
          }
        : {
            days,
            window,
            title: `Calls per day, last ${days} days (UTC)`,
            refusalsTitle: `Refused calls, last ${days} days (UTC)`,
          };
    });
  const { window: longest, refusalsTitle } = periods[periods.length - 1]!;
  const [history, requests] = await Promise.all([keys.history(holder, key.id, longest), keys.requests(holder)]);
  const rows = history.map((entry) => ({ start: new Date(entry.start), outcome: entry.outcome, calls: entry.calls }));
  const charts = periods.map(({ days, window, title }) => {
    const spec = servedAndRefused({ id: `days-${days}`, title }, rows, { ...window, by: 'day' });
    return chartFigure(spec, chartSvg(spec));
  });
  const refused = new Map<string, number>();
  for (const row of rows)
    if (row.outcome !== 'served') refused.set(row.outcome, (refused.get(row.outcome) ?? 0) + row.calls);
  const refusals = [...refused]
    .map(([outcome, calls]) => ({ outcome, reason: refusalReason(outcome), calls }))
    .sort((a, b) => b.calls - a.calls);
  return {
    charts,
    refusals,
    // The window the refusals were counted over, as its chart's title says it.
    refusalsTitle,
    requests: requests.filter((request) => request.keyId === key.id),
  };
}
