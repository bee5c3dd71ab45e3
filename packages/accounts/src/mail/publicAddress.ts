import { OperatorError } from '../operator/operatorError.js';

/**
 * The address a holder's mailed links start with. Only the service's declared public address
 * (PUBLIC_BASE_URL) will do: a process that does not serve the API (the CLI, the console) can
 * only guess where it is served from, and a guessed link is the holder's first failed copy-paste.
 * Throws the one-line refusal naming the setting, before anything is done.
 */
export function requirePublicBaseUrl(configured: string | undefined): string {
  if (configured === undefined || configured.trim() === '')
    throw new OperatorError(
      'PUBLIC_BASE_URL is not set: mailed links need the address the service is served from (e.g. PUBLIC_BASE_URL=https://quotes.example.com); nothing was done or mailed',
      'refused',
    );
  return configured.replace(/\/+$/, '');
}
