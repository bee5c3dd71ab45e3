/**
 * An expiry as shown to operators and customers: the instant, and in words when it ends a day (a
 * date alone given as an expiry runs to the end of that day: calendarDate.ts's endOfDay).
 */
export function expiryText(iso: string): string {
  return iso.endsWith('T23:59:59Z') ? `${iso} (end of that day, UTC)` : iso;
}
