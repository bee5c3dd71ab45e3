// Runs in the reader's browser, served as is from /docs/assets/swagger-initializer.js.
// A file rather than an inline script so the page's Content-Security-Policy can forbid inline
// scripts; what differs per mount point arrives through data- attributes on #swagger-ui.
(() => {
  const root = document.getElementById('swagger-ui');
  const specUrl = root.dataset.specUrl;

  // The contract lists 127.0.0.1:3000 and :4010; "Try it out" must hit whichever server (any
  // port, any host name) served this page, so that origin goes first and becomes the default.
  function withServingOriginFirst(spec) {
    const origin = window.location.origin;
    const listed = Array.isArray(spec.servers) ? spec.servers : [];
    const serving = listed.find((server) => server.url.replace(/\/+$/, '') === origin);
    const first = serving ?? { url: origin, description: 'This server (the one serving this page)' };
    return { ...spec, servers: [first, ...listed.filter((server) => server !== serving)] };
  }

  // Swagger UI fills every parameter's example into "Try it out". The contract's optional
  // filters all have one, and five filters at once is a 403 for most plans, so a reader's first
  // try would fail. Optional parameters start empty instead; their example stays in the text.
  function withOptionalParametersEmpty(spec) {
    const copy = structuredClone(spec);
    const parameters = [...Object.values(copy.components?.parameters ?? {})];
    for (const pathItem of Object.values(copy.paths ?? {})) {
      parameters.push(...(pathItem.parameters ?? []));
      for (const operation of Object.values(pathItem)) {
        if (operation && Array.isArray(operation.parameters)) parameters.push(...operation.parameters);
      }
    }
    for (const parameter of parameters) {
      if (parameter.required || parameter.$ref) continue;
      const example = parameter.example ?? parameter.schema?.example;
      if (example === undefined) continue;
      delete parameter.example;
      delete parameter.examples;
      if (parameter.schema) delete parameter.schema.example;
      parameter.description = `${parameter.description ?? ''}\n\nExample: \`${example}\``.trim();
    }
    return copy;
  }

  fetch(specUrl, { headers: { accept: 'application/json' } })
    .then((response) => {
      if (!response.ok) throw new Error(`${specUrl} answered ${response.status}`);
      return response.json();
    })
    .then((spec) => {
      window.ui = window.SwaggerUIBundle({
        spec: withOptionalParametersEmpty(withServingOriginFirst(spec)),
        dom_id: '#swagger-ui',
        deepLinking: true,
        docExpansion: 'list',
        displayRequestDuration: true,
        // A pasted key survives reloads (kept in this browser's localStorage only).
        persistAuthorization: true,
        // The default posts the contract to validator.swagger.io: the page must stay offline.
        validatorUrl: null,
        // ?url=... must not turn this page into a viewer of someone else's document.
        queryConfigEnabled: false,
      });
    })
    .catch((error) => {
      root.textContent = `The API reference could not load the contract: ${error.message}`;
    });
})();
