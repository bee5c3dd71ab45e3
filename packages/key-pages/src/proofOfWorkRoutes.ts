import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Response, Router } from 'express';
import { proofOfWorkAssets, proofOfWorkSetupScript } from '@quotes/text-rules';

/**
 * The proof-of-work widget's files, served by the service from the installed `altcha` package
 * (its build without inline styles or blob: workers, for the pages' policy), read once.
 */
export function proofOfWorkAssetRoutes(): Router {
  const external = dirname(fileURLToPath(import.meta.resolve('altcha/external')));
  const files = {
    [proofOfWorkAssets.script]: { type: 'text/javascript', body: readFileSync(join(external, 'altcha.min.js')) },
    [proofOfWorkAssets.styles]: { type: 'text/css', body: readFileSync(join(external, 'altcha.css')) },
    [proofOfWorkAssets.worker]: {
      type: 'text/javascript',
      body: readFileSync(fileURLToPath(import.meta.resolve('altcha/workers/pbkdf2'))),
    },
    [proofOfWorkAssets.setup]: { type: 'text/javascript', body: Buffer.from(proofOfWorkSetupScript) },
  };
  const router = Router();
  for (const [path, file] of Object.entries(files))
    router.get(path, (_request, response: Response) => {
      response.setHeader('Content-Type', `${file.type}; charset=utf-8`);
      response.setHeader('X-Content-Type-Options', 'nosniff');
      response.setHeader('Cache-Control', 'public, max-age=3600');
      response.send(file.body);
    });
  return router;
}
