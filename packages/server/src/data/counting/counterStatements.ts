/** The monthly counter's statements: one round writes counts and sizes leases in one transaction. */

// Statement 1 adds each key's calls answered since the last flush and locks its usage rows, in
// key order (the same in every process, so two servers' rounds never deadlock). Capped keys are
// in it even with nothing to add: their lease may change only under this lock.
export const flushStatement = `
  INSERT INTO monthly_usage AS u (key_id, month, calls)
  SELECT key_id, month, served FROM unnest($1::text[], $2::date[], $3::int[]) AS row(key_id, month, served)
  ORDER BY key_id, month
  ON CONFLICT (key_id, month) DO UPDATE SET calls = u.calls + excluded.calls
  RETURNING key_id, month::text AS month, calls, txid_current()::text AS xid`;

// Statement 2, after statement 1 in the same transaction (so its snapshot sees every other
// server's lease committed before this one took the locks): this server's lease of each capped
// key becomes what it kept (minus the calls just written and the places given back) plus a grant
// of at most min(asked, what remains, and with other servers live, what remains / (2 x live
// servers), at least one while any remains). So calls + every live lease stays at most the cap. Leases of other servers not renewed
// within the expiry are deleted (those of the keys locked here only: no other lock is taken).
export const leaseStatement = `
  WITH lane AS (
    SELECT * FROM unnest($1::text[], $2::date[], $3::int[], $4::int[], $5::int[], $6::int[])
      AS lane(key_id, month, served, give_back, ask, cap)),
  expired AS (
    DELETE FROM allowance_leases a USING lane
    WHERE a.key_id = lane.key_id AND a.server_id <> $7 AND a.renewed_at < now() - $9::int * interval '1 millisecond'),
  held AS (
    SELECT lane.key_id, lane.month, lane.ask, lane.cap, u.calls,
      COALESCE((SELECT sum(a.reserved) FROM allowance_leases a
        WHERE a.key_id = lane.key_id AND a.month = lane.month AND a.server_id <> $7
          AND a.renewed_at >= now() - $9::int * interval '1 millisecond'), 0)::int AS others,
      GREATEST(COALESCE((SELECT a.reserved FROM allowance_leases a
        WHERE a.key_id = lane.key_id AND a.month = lane.month AND a.server_id = $7), 0) - lane.served - lane.give_back, 0) AS kept
    FROM lane JOIN monthly_usage u ON u.key_id = lane.key_id AND u.month = lane.month),
  sized AS (
    SELECT held.*, GREATEST(LEAST(ask, cap - calls - others - kept, CASE WHEN $8::int = 1 THEN ask
      ELSE GREATEST(1, (cap - calls - others - kept) / (2 * $8::int)) END), 0) AS granted
    FROM held),
  renewed AS (
    INSERT INTO allowance_leases AS a (server_id, key_id, month, reserved, renewed_at)
    SELECT $7, key_id, month, kept + granted, now() FROM sized WHERE kept + granted > 0
    ORDER BY key_id, month
    ON CONFLICT (server_id, key_id, month) DO UPDATE SET reserved = excluded.reserved, renewed_at = excluded.renewed_at),
  returned AS (
    DELETE FROM allowance_leases a USING sized
    WHERE a.server_id = $7 AND a.key_id = sized.key_id AND a.month = sized.month AND sized.kept + sized.granted = 0)
  SELECT key_id, month::text AS month, kept + granted AS reserved, granted, cap - calls - others - kept - granted AS remaining,
    others
  FROM sized`;

// The journal's generations up to this one are in monthly_usage (written in the round's transaction).
export const journalStatement = `
  INSERT INTO count_journals AS j (server_id, written_generation, updated_at) VALUES ($1, $2, now())
  ON CONFLICT (server_id) DO UPDATE SET written_generation = GREATEST(j.written_generation, excluded.written_generation),
    updated_at = excluded.updated_at`;

// Keys read for quotes-usage with nothing to write: their count as committed.
export const readStatement = `
  SELECT key_id, month::text AS month, calls FROM monthly_usage
  WHERE (key_id, month) IN (SELECT * FROM unnest($1::text[], $2::date[]))`;

// Counts commit without waiting for the WAL flush: the trade is in the README ("Counts do not
// wait for the disk").
export const beginCountingTransaction = 'BEGIN; SET LOCAL synchronous_commit TO off';
