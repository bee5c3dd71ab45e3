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

/**
 * Which earlier secret works after a roll, and until when (decision 0049). At most two secrets
 * work at once: the current one and one previous one in its grace. A roll never shortens a
 * grace already running: "at once" ends the current secret and keeps the earlier one until its
 * own end; a roll with a grace while another runs would need a third secret, so it is refused
 * in words (roll at once, or again once the running grace ends).
 */
export type GraceAfterRoll =
  | { readonly keep: 'none' }
  | { readonly keep: 'current'; readonly until: Date }
  | { readonly keep: 'previous'; readonly until: Date }
  | { readonly refused: string };

export function graceAfterRoll(runningUntil: Date | null, now: Date, graceMs: number): GraceAfterRoll {
  const running = runningUntil !== null && runningUntil.getTime() > now.getTime() ? runningUntil : null;
  if (running === null)
    return graceMs === 0 ? { keep: 'none' } : { keep: 'current', until: new Date(now.getTime() + graceMs) };
  if (graceMs === 0) return { keep: 'previous', until: running };
  const end = running.toISOString().replace(/\.\d{3}Z$/, 'Z');
  return {
    refused: `the secret before this one still works until ${end} (its grace); a roll with a grace now would keep three secrets working. Roll at once (that earlier secret still ends at ${end}), or roll with a grace after ${end}`,
  };
}

/**
 * What a roll did to the secrets it left behind, as every surface says it right after (the
 * holder's page, the console, the CLI, the new key's mail): the one it replaced, and the one
 * before that while its grace runs.
 */
export function rollOutcomeWords(rolled: {
  readonly previousSecretIs: 'replaced' | 'earlier' | null;
  readonly previousSecretUntil: string | null;
}): string {
  if (rolled.previousSecretIs === 'replaced')
    return `The secret it replaced keeps working until ${rolled.previousSecretUntil}, then is refused.`;
  if (rolled.previousSecretIs === 'earlier')
    return `The secret it replaced is refused from now on; the one before it keeps working until ${rolled.previousSecretUntil}, the end of its grace.`;
  return 'The secret it replaced is refused from now on.';
}
