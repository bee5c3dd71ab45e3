/**
 * An expiry given as a date alone (`--expires-at 2027-06-30`) keeps the key working through that
 * whole day in UTC: operators and customers read "until the 30th" as including the 30th.
 */
export function endOfDayUtc(date: string): Date {
  return new Date(`${date}T23:59:59Z`);
}

/** An expiry as shown to operators and customers: the instant, and in words when it ends a day. */
export function expiryText(iso: string): string {
  return iso.endsWith('T23:59:59Z') ? `${iso} (end of that day, UTC)` : iso;
}
