import { chunkShift, coverageChunkBits } from './historyHoldings.js';

// Rows are upserted in key, period and outcome order, the same in every process, so two servers'
// flushes cannot deadlock on each other's rows.
export const flushStatement = `
  INSERT INTO usage_history AS h (key_id, span, period_start, outcome, calls)
  SELECT key_id, 'hour', period_start, outcome, calls
  FROM unnest($1::text[], $2::timestamptz[], $3::text[], $4::bigint[]) AS row(key_id, period_start, outcome, calls)
  ORDER BY key_id, period_start, outcome
  ON CONFLICT (key_id, span, period_start, outcome) DO UPDATE SET calls = h.calls + excluded.calls`;

// Distinct values: a value already there for the key, day and kind is not news.
export const sightingsStatement = `
  INSERT INTO usage_sightings (key_id, day, kind, value)
  SELECT key_id, day, kind, value
  FROM unnest($1::text[], $2::date[], $3::text[], $4::text[]) AS row(key_id, day, kind, value)
  ORDER BY key_id, day, kind, value
  ON CONFLICT DO NOTHING`;

/**
 * A chunk with at most this many bits set is sent as its positions' text (about 7 characters each,
 * under 1 KB) rather than as 2 KB of hex: the statement of a flush holding sparse chunks stays
 * small beside the chunks themselves.
 */
export const sentPositions = 128;

// Bits served: OR-ed into what other servers wrote, so the merge is exact in any order. Dense
// chunks arrive as bytes; a key's listed positions and sparse chunks as positions separated by
// commas, which become their chunks' bits here.
export const coverageStatement = `
  INSERT INTO usage_coverage AS c (key_id, month, chunk, bits)
  SELECT key_id, month, chunk, bit_or(bits)
  FROM (
    SELECT key_id, month, chunk, ('x' || encode(bits, 'hex'))::bit(${coverageChunkBits}) AS bits
    FROM unnest($1::text[], $2::date[], $3::integer[], $4::bytea[]) AS row(key_id, month, chunk, bits)
    UNION ALL
    SELECT key_id, month, position >> ${chunkShift}, set_bit(B'0'::bit(${coverageChunkBits}), position & ${coverageChunkBits - 1}, 1)
    FROM unnest($5::text[], $6::date[], $7::text[]) AS row(key_id, month, positions),
      unnest(string_to_array(positions, ',')::integer[]) AS position
  ) AS covered
  GROUP BY month, key_id, chunk
  ORDER BY month, key_id, chunk
  ON CONFLICT (month, key_id, chunk) DO UPDATE SET bits = c.bits | excluded.bits`;
