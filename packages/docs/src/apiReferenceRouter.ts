import { readFileSync } from 'node:fs';
import { contractPath, describedContract } from '@quotes/contract';
import express, { type Router } from 'express';
import { asMockReference } from './mockReference.js';
import { referenceDocument } from './referenceDocument.js';
import { docsPageContentSecurityPolicy, renderDocsPage } from './docsPage.js';
import { docsAssets } from './rendererAssets.js';
import { requestOrigin, type ServedContract, servedContract } from './servedContract.js';

/**
 * GET /docs (the interactive reference), /docs/assets/*, /docs/reference.json (what the page
 * renders), /openapi.yaml, /openapi.json, and / redirecting to /docs. None of them asks for a key, so mount it before the API's own
 * authentication and 404 handling. Unknown asset names fall through to the app's 404.
 */
export function apiReferenceRouter(options: { mock?: boolean } = {}): Router {
  const router = express.Router();
  // Read once, like loadContract(): both forms describe the same contract for the process's life.
  // The page renders the JSON, whose plan table is written from the contract's `x-plans` data
  // (the contract's tests keep the YAML's prose table equal to it). Built at the first request
  // for either: finding the YAML's servers list parses the whole file, a quarter of a second of a
  // server's start that few servers are ever asked for.
  let contract: ServedContract | undefined;
  const served = (): ServedContract =>
    (contract ??= servedContract(readFileSync(contractPath, 'utf8'), describedContract()));
  // The mock's page says so and leaves out the key request, which only the real service answers.
  const described = options.mock ? asMockReference(describedContract()) : describedContract();
  const referenceJson = JSON.stringify(referenceDocument(described));
  const title = `${String(described.info.title)}: API reference`;
  const contentSecurityPolicy = docsPageContentSecurityPolicy();

  router.get('/', (req, res) => {
    res.redirect(302, `${req.baseUrl}/docs`);
  });

  router.get('/docs', (req, res) => {
    res
      .set({
        'Content-Security-Policy': contentSecurityPolicy,
        'X-Content-Type-Options': 'nosniff',
        'Referrer-Policy': 'no-referrer',
        'Cache-Control': 'no-cache',
      })
      .type('html')
      .send(renderDocsPage({ baseUrl: req.baseUrl, title }));
  });

  router.get('/docs/reference.json', (_req, res) => {
    res.set({ 'Cache-Control': 'no-cache' }).type('application/json; charset=utf-8').send(referenceJson);
  });

  router.get('/docs/assets/:file', (req, res, next) => {
    const file = docsAssets.get(req.params.file);
    if (!file) {
      next();
      return;
    }
    // ETag and Last-Modified let browsers revalidate cheaply; no max-age, so an upgraded
    // renderer is picked up at the next load.
    res.set('X-Content-Type-Options', 'nosniff').sendFile(file, (error) => {
      // After headers went out (a reader who navigated away) there is nothing left to answer.
      if (error && !res.headersSent) next(error);
    });
  });

  // The contract is public: any origin (an editor, a code generator in a browser) may fetch it.
  router.get('/openapi.yaml', (req, res) => {
    res
      .set({ 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'no-cache' })
      .type('application/yaml; charset=utf-8')
      .send(served().yaml(requestOrigin(req)));
  });

  router.get('/openapi.json', (req, res) => {
    res
      .set({ 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'no-cache' })
      .type('application/json; charset=utf-8')
      .send(served().json(requestOrigin(req)));
  });

  return router;
}
