/**
 * How long a rolled key's previous secret keeps working: the choices a holder is offered (a
 * leaked key wants "at once"; a deployed application wants time to change its secret). Longer
 * than a day leaves a leaked secret usable too long, so no surface accepts more.
 */
export const rollGraces = [
  { id: 'at-once', label: 'at once', ms: 0 },
  { id: '1-hour', label: 'after 1 hour', ms: 3_600_000 },
  { id: '24-hours', label: 'after 24 hours', ms: 86_400_000 },
] as const;

export type RollGraceId = (typeof rollGraces)[number]['id'];

export const maxRollGraceMs = 86_400_000;

/** The grace a choice names, or undefined for anything else. */
export function rollGraceOf(id: unknown): (typeof rollGraces)[number] | undefined {
  return rollGraces.find((grace) => grace.id === id);
}
