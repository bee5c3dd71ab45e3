import express from 'express';
import { apiReferenceRouter } from '../../src/index.js';
import { type Listening, listen } from '../../testing/index.js';

/**
 * An app with only the reference router, mounted at `mountPath`, and a 404 fallback like the
 * server's, so what the router declines is visible as a 404.
 */
export function startReferenceApp(mountPath = '/'): Promise<Listening> {
  const app = express();
  app.use(mountPath, apiReferenceRouter());
  app.use((_req, res) => {
    res.status(404).type('text/plain').send('not found by the test app');
  });
  return listen(app);
}
