/** Whether a key may call at an instant: the one place "revoked" and "expired" are decided. */
export type KeyStanding = 'active' | 'revoked' | 'expired';

export function keyStanding(key: { status: 'active' | 'revoked'; expiresAt: Date | null }, now: Date): KeyStanding {
  if (key.status === 'revoked') return 'revoked';
  // Expired from the instant itself: a key valid "until" 00:00 no longer works at 00:00.
  if (key.expiresAt !== null && key.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'active';
}
