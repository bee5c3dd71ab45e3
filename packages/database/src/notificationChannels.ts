/**
 * The NOTIFY channels every server process LISTENs on, named once: the operator's key changes
 * and the corpus loader send on them, the servers' notification connection listens. Payload: the
 * key id / the new corpus version.
 */
export const keyChangedChannel = 'quotes_key_changed';
export const corpusChangedChannel = 'quotes_corpus_changed';
