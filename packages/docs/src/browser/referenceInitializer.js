// Runs in the reader's browser, served as is from /docs/assets/reference-initializer.js.
// A file rather than an inline script so the page's Content-Security-Policy can forbid inline
// scripts; what differs per mount point arrives through data- attributes on #reference.
(() => {
  const root = document.getElementById('reference');
  const documentUrl = root.dataset.documentUrl;
  const origin = window.location.origin;
  // The samples' baseUrl as clientSamples.ts writes it, replaced by the origin serving this page.
  const sampleOrigin = root.dataset.sampleOrigin;

  // The contract lists 127.0.0.1:3000 and :4010; "try it" must call whichever server (any port,
  // any host name) served this page, so that origin goes first and becomes the default.
  function serversWithServingOriginFirst(spec) {
    const listed = Array.isArray(spec.servers) ? spec.servers : [];
    const serving = listed.find((server) => server.url.replace(/\/+$/, '') === origin);
    const first = serving ?? { url: origin, description: 'This server (the one serving this page)' };
    return [first, ...listed.filter((server) => server !== serving)];
  }

  // The samples call the server that served this page, as "try it" does.
  function withSamplesForThisOrigin(spec) {
    const copy = structuredClone(spec);
    for (const pathItem of Object.values(copy.paths ?? {})) {
      for (const operation of Object.values(pathItem)) {
        for (const sample of operation?.['x-codeSamples'] ?? []) {
          sample.source = sample.source.replaceAll(sampleOrigin, origin);
        }
      }
    }
    return copy;
  }

  // The renderer gives every secret field a fixed placeholder (base64 text, grey) that reads as a
  // key already filled in, and has no setting for it: it is taken off each such field it renders.
  const keyPlaceholder = 'QUxMIFlPVVIgQkFTRSBBUkUgQkVMT05HIFRPIFVT';
  const withKeyPlaceholder = `input[placeholder="${keyPlaceholder}"]`;
  function removeKeyPlaceholders(node) {
    if (!(node instanceof Element)) return;
    if (node.matches(withKeyPlaceholder)) node.removeAttribute('placeholder');
    for (const field of node.querySelectorAll(withKeyPlaceholder)) field.removeAttribute('placeholder');
  }
  new MutationObserver((changes) => {
    for (const change of changes) {
      if (change.type === 'attributes') removeKeyPlaceholders(change.target);
      else for (const node of change.addedNodes) removeKeyPlaceholders(node);
    }
  }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['placeholder'] });

  fetch(documentUrl, { headers: { accept: 'application/json' } })
    .then((response) => {
      if (!response.ok) throw new Error(`${documentUrl} answered ${response.status}`);
      return response.json();
    })
    .then((spec) => {
      window.Scalar.createApiReference(root, {
        content: withSamplesForThisOrigin(spec),
        servers: serversWithServingOriginFirst(spec),
        // A key entered once is used by every operation and survives reloads (this browser's
        // localStorage only).
        persistAuth: true,
        authentication: { preferredSecurityScheme: 'ApiKeyHeader' },
        // Offline and private: no fonts from Scalar's CDN, no telemetry, no request proxy, no
        // links out to Scalar's hosted client, AI agent or developer tools.
        withDefaultFonts: false,
        telemetry: false,
        proxyUrl: undefined,
        hideClientButton: true,
        showDeveloperTools: 'never',
        agent: { disabled: true },
        mcp: { disabled: true },
        documentDownloadType: 'none',
        // curl and Python (requests) written by Scalar, beside our client sample (x-codeSamples).
        hiddenClients: {
          c: true,
          clojure: true,
          csharp: true,
          dart: true,
          fsharp: true,
          go: true,
          http: true,
          java: true,
          js: true,
          kotlin: true,
          node: true,
          objc: true,
          ocaml: true,
          php: true,
          powershell: true,
          julia: true,
          python: ['python3', 'httpx_sync', 'httpx_async', 'aiohttp'],
          r: true,
          ruby: true,
          rust: true,
          shell: ['httpie', 'wget'],
          swift: true,
        },
        defaultHttpClient: { targetKey: 'shell', clientKey: 'curl' },
        operationTitleSource: 'summary',
        // Four operations: all of them in the sidebar at once.
        defaultOpenAllTags: true,
      });
    })
    .catch((error) => {
      root.textContent = `The API reference could not load the contract: ${error.message}`;
    });
})();
