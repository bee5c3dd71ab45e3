import { fileURLToPath } from 'node:url';

/**
 * A file of the deployment (`deploy/` at the checkout's root): the cluster runs PgBouncer and
 * HAProxy from the files operators copy, with its own ports and paths put in.
 */
export function deployFile(path: string): string {
  // src/cluster or dist/cluster, three levels below the checkout.
  return fileURLToPath(new URL(`../../../deploy/${path}`, import.meta.url));
}
