import { fileURLToPath } from 'node:url';

/**
 * A file of the deployment (`deploy/` at the checkout's root): the cluster runs PgBouncer and
 * HAProxy from the files operators copy, with its own ports and paths put in.
 */
export function deployFile(path: string): string {
  // packages/cluster/src or packages/cluster/dist: three levels below the checkout.
  return fileURLToPath(new URL(`../../../deploy/${path}`, import.meta.url));
}
