'use strict';
// Dredd hooks for the conformance suite. CommonJS because Dredd require()s hook files and this
// package is ESM. Deliberately dumb: what each transaction needs (keys, query, outage) is decided
// and provisioned in TypeScript (src/dredd/transactionPlan.ts) and handed over as a JSON fixture
// (see src/dredd/fixture.ts for its shape). Dredd only warns when a hook file fails to load, so
// the runner treats a missing report file as a failed run.

const fs = require('node:fs');
const hooks = require('hooks');

const fixturePath = process.env.QUOTES_DREDD_FIXTURE;
if (!fixturePath) throw new Error('QUOTES_DREDD_FIXTURE is not set: run Dredd through the conformance runner');
const fixture = JSON.parse(fs.readFileSync(fixturePath, 'utf8'));
const shapes = fixture.transactions;

const state = { loaded: true, transactions: [], unshaped: [], unused: [], finished: false };
/** Transaction name -> when its beforeEach began, so each result carries its real time. */
const startedAt = new Map();
const durationMs = new Map();
function writeReport() {
  fs.writeFileSync(fixture.reportPath, JSON.stringify(state, null, 2));
}
writeReport();

function control(action, done, transaction) {
  fetch(`${fixture.controlUrl}/outage/${action}`, { method: 'POST', signal: AbortSignal.timeout(60000) })
    .then(async (response) => {
      const text = await response.text();
      if (!response.ok) transaction.fail = `outage ${action} failed: ${response.status} ${text}`;
    })
    .catch((error) => {
      transaction.fail = `outage ${action} failed: ${error.message}`;
    })
    .finally(() => done());
}

// The same request sent beforehand, one after another (a bound reached before the transaction).
function repeat(times, done, transaction) {
  const { method, headers, body } = transaction.request;
  const url = `${transaction.protocol}//${transaction.host}:${transaction.port}${transaction.fullPath}`;
  const send = (left) => {
    if (left === 0) return Promise.resolve();
    return fetch(url, { method, headers, body, signal: AbortSignal.timeout(10000) })
      .then((response) => response.arrayBuffer())
      .then(() => send(left - 1));
  };
  send(times)
    .catch((error) => {
      transaction.fail = `sending the request beforehand failed: ${error.message}`;
    })
    .finally(() => done());
}

hooks.beforeAll((transactions, done) => {
  const names = new Set(transactions.map((transaction) => transaction.name));
  state.unshaped = [...names].filter((name) => !Object.hasOwn(shapes, name));
  state.unused = Object.keys(shapes).filter((name) => !names.has(name));
  writeReport();
  done();
});

hooks.beforeEach((transaction, done) => {
  startedAt.set(transaction.name, performance.now());
  const shape = shapes[transaction.name];
  if (!shape) {
    transaction.fail = 'no hook reaches this documented response: teach src/dredd/transactionPlan.ts how to produce it';
    return done();
  }
  if (shape.skip) {
    transaction.skip = true;
    return done();
  }
  if (shape.uri) {
    // Keep whatever path prefix the base URL carries in front of the contract's path.
    const prefix = transaction.fullPath.slice(0, transaction.fullPath.length - transaction.request.uri.length);
    transaction.request.uri = shape.uri;
    transaction.fullPath = prefix + shape.uri;
  }
  for (const name of shape.removeHeaders || []) {
    for (const existing of Object.keys(transaction.request.headers)) {
      if (existing.toLowerCase() === name.toLowerCase()) delete transaction.request.headers[existing];
    }
  }
  Object.assign(transaction.request.headers, shape.headers || {});
  const contentType = Object.entries(transaction.request.headers).find(
    ([name]) => name.toLowerCase() === 'content-type',
  );
  const form = contentType && /x-www-form-urlencoded/i.test(contentType[1]);
  const body = form && typeof shape.formBody === 'string' ? shape.formBody : shape.body;
  if (typeof body === 'string') {
    transaction.request.body = body;
    for (const existing of Object.keys(transaction.request.headers)) {
      if (existing.toLowerCase() === 'content-length') delete transaction.request.headers[existing];
    }
    transaction.request.headers['Content-Length'] = String(Buffer.byteLength(body));
  }
  if (shape.repeatBefore) return repeat(shape.repeatBefore, done, transaction);
  if (shape.outage) {
    if (!fixture.controlUrl) {
      transaction.fail = 'this transaction needs a database outage but no control endpoint was given';
      return done();
    }
    return control('start', done, transaction);
  }
  done();
});

hooks.afterEach((transaction, done) => {
  const shape = shapes[transaction.name] || {};
  const real = transaction.real;
  if (real) {
    const record = {
      name: transaction.name,
      request: {
        method: transaction.request.method,
        uri: transaction.request.uri,
        headerNames: Object.keys(transaction.request.headers),
      },
      response: { status: real.statusCode, headers: real.headers, body: real.body || '' },
    };
    fs.appendFileSync(fixture.recordPath, `${JSON.stringify(record)}\n`);
    let body;
    try {
      body = JSON.parse(real.body);
    } catch {
      body = undefined;
    }
    // Dredd compares status, Content-Type and keys only: a 403 for the wrong reason would pass.
    if (shape.expectProblemType && (!body || body.type !== shape.expectProblemType)) {
      transaction.fail = `expected problem type ${shape.expectProblemType}, got ${body ? body.type : 'no JSON body'}`;
    }
    if (shape.expectErrorParameters) {
      const named = body && Array.isArray(body.errors) ? body.errors.map((error) => error.parameter) : [];
      const missing = shape.expectErrorParameters.filter((parameter) => !named.includes(parameter));
      if (missing.length > 0)
        transaction.fail = `errors does not name ${missing.join(', ')} (named: ${named.join(', ') || 'none'})`;
    }
  }
  const finish = () => {
    durationMs.set(transaction.name, performance.now() - (startedAt.get(transaction.name) ?? performance.now()));
    done();
  };
  if (shape.outage && fixture.controlUrl) return control('end', finish, transaction);
  finish();
});

hooks.afterAll((transactions, done) => {
  state.transactions = transactions.map((transaction) => ({
    name: transaction.name,
    status: transaction.test ? transaction.test.status : null,
    message: [transaction.test ? transaction.test.message : '', transaction.fail || ''].filter(Boolean).join(' '),
    durationMs: durationMs.get(transaction.name),
  }));
  state.finished = true;
  writeReport();
  done();
});
