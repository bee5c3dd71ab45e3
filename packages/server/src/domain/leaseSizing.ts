/** What one key's lease on this server has now and has been asked for, as a round is taken. */
export interface LeaseDemand {
  /** Places of the lease not held by a call nor spent on an answered one. */
  readonly free: number;
  /** Calls of the key asked of this server since the last timed flush. */
  readonly askedSinceFlush: number;
  /** Calls waiting for this round because the lease had no free place. */
  readonly waiting: number;
  /** Calls asked in the flush interval before the last one: the key's demand here. */
  readonly demand: number;
  /** The round is a timed flush (every COUNT_FLUSH_MS), when a lease is resized to the demand. */
  readonly timed: boolean;
  /** The server is stopping: every free place goes back. */
  readonly closing: boolean;
}

/** How a round changes a lease: places given back now, and places asked for (the database may grant fewer). */
export interface LeaseChange {
  readonly giveBack: number;
  readonly ask: number;
}

/**
 * Lease sizing. A timed flush sizes the lease to the key's demand over about two flush intervals
 * here (so calls find a free place until the next flush renews it), giving back what is beyond it
 * (an idle key's lease goes back whole); a round taken for waiting calls asks for them plus one
 * interval's demand (other keys' leases are only renewed). The database caps every grant at a share of what remains (see
 * monthlyCounter.ts), so near the cap leases shrink to a single call.
 */
export function leaseChange(lease: LeaseDemand): LeaseChange {
  if (lease.closing) return { giveBack: lease.free, ask: 0 };
  if (!lease.timed) return { giveBack: 0, ask: lease.waiting > 0 ? lease.waiting + lease.demand : 0 };
  const target = 2 * lease.askedSinceFlush + lease.waiting;
  return lease.free > target ? { giveBack: lease.free - target, ask: 0 } : { giveBack: 0, ask: target - lease.free };
}
