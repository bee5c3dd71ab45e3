/** Every API key begins with this: the key's generator writes it, the log's redaction looks for it. */
export const apiKeyPrefix = 'qk_';
