/**
 * The NOTIFY channels every server process LISTENs on, named once: the operator's key changes
 * and the corpus loader send on them, the servers' notification connection listens. Payload: the
 * key id / the new corpus version.
 */
export const keyChangedChannel = 'quotes_key_changed';
export const corpusChangedChannel = 'quotes_corpus_changed';

/**
 * A reload in two steps (see the corpus package's README, "Reloading under traffic"): the loader
 * announces the next corpus on `corpusNextChannel` (payload: its version) once it is committed
 * as quotes_next; each server builds its index from it and answers on `corpusPreparedChannel`
 * (payload: the same version) from its notification connection; the loader swaps when every
 * listening server has answered or its deadline passed.
 */
export const corpusNextChannel = 'quotes_corpus_next';
export const corpusPreparedChannel = 'quotes_corpus_prepared';

/**
 * The application_name of every server's notification connection: how the loader finds, in
 * pg_stat_activity, the servers it waits for (a LISTEN is not visible there).
 */
export const corpusListenerName = 'quotes-corpus-listener';

/**
 * Servers announce themselves here (payload `hello:<id>`, `here:<id>`, `bye:<id>`), so each
 * knows how many share the per-key burst limits (the server's fairness/serverPresence.ts).
 */
export const serverPresenceChannel = 'quotes_server_presence';
