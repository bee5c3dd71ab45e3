/** NOTIFY channels every server process LISTENs on. Payload: the key id / the corpus version. */
export const keyChangedChannel = 'quotes_key_changed';
export const corpusChangedChannel = 'quotes_corpus_changed';
