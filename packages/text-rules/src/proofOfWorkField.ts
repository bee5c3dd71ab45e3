import { type Html, html } from './html.js';

/**
 * The proof-of-work widget (ALTCHA) on a form that mails strangers, while the service is busy:
 * its scripts and styles from the service itself (never a third party), the signed challenge in
 * the element (no fetch), solved in the background as soon as the page loads, its payload posted
 * as the form's `altcha` field. Without JavaScript, the visitor reads why and when to come back.
 */

/** Where the service serves the widget's files from (the key pages' router). */
export const proofOfWorkAssets = {
  script: '/keys/altcha/altcha.js',
  setup: '/keys/altcha/setup.js',
  worker: '/keys/altcha/pbkdf2-worker.js',
  styles: '/keys/altcha/altcha.css',
} as const;

export interface ProofOfWorkAsk {
  readonly challenge: string;
  /** Seconds until the forms stop asking; undefined when they always ask. */
  readonly untilQuieterSeconds: number | undefined;
  /** Why the last post was refused, said above the widget. */
  readonly refusal?: string;
}

/** A wait as a person reads it: whole minutes, rounded up. */
export const minutesIn = (seconds: number) => {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
};

/** Why the form needs JavaScript now and when it will not: the words for a visitor without it. */
export function proofOfWorkWithoutScript(ask: ProofOfWorkAsk): string {
  const why =
    'While the service is busy, this form asks your browser for a small proof of work (a second or two of computing, done with JavaScript) before anything is recorded or mailed, so that a flood of requests costs whoever sends it.';
  return ask.untilQuieterSeconds === undefined
    ? `${why} Your browser runs no JavaScript here, so nothing can be sent from it: open this page in a browser that does.`
    : `${why} Your browser runs no JavaScript here, so nothing can be sent from it now: come back in ${minutesIn(ask.untilQuieterSeconds)}, when the form works without it again.`;
}

/** The widget's script and stylesheet: placed once per page, in its head. */
export function proofOfWorkHead(): Html {
  return html`<link rel="stylesheet" href="${proofOfWorkAssets.styles}">
<script type="module" src="${proofOfWorkAssets.setup}"></script>`;
}

/** The widget inside the form, and the words for a visitor without JavaScript. */
export function proofOfWorkField(ask: ProofOfWorkAsk): Html {
  return html`<div class="proof">
${ask.refusal ? html`<p class="errors" role="alert">${ask.refusal}</p>` : ''}
<altcha-widget name="altcha" auto="onload" challenge="${ask.challenge}"></altcha-widget>
<noscript><p class="errors" role="alert">${proofOfWorkWithoutScript(ask)}</p></noscript>
</div>`;
}

/**
 * The page's one script: the widget, then where its worker is (a file of the service, so the
 * policy needs no blob: workers). A module's imports run before it, in the same turn: the worker
 * is known before the widget starts solving (a timer after it is defined).
 */
export const proofOfWorkSetupScript = `import ${JSON.stringify(`./${proofOfWorkAssets.script.split('/').pop()}`)};
globalThis.$altcha.algorithms.set('PBKDF2/SHA-256', () => new Worker(${JSON.stringify(proofOfWorkAssets.worker)}));
`;

/**
 * Why a form was refused for its proof of work, and when the forms stop asking: the words of both
 * forms, for a person at the form (`page`) or a script (`script`: where the challenge is).
 */
export function proofRefusalWords(
  reason: 'missing' | 'invalid' | 'expired' | 'spent',
  asked: { untilQuieterSeconds: number | undefined },
  what: 'request' | 'link',
  to: 'page' | 'script' = 'page',
): string {
  const nothing = what === 'request' ? 'Nothing was recorded or mailed' : 'Nothing was mailed';
  if (to === 'script')
    return `The service is busy, so a key request needs a proof of work: the \`altcha\` field, an ALTCHA solution of the challenge on the form at /keys/request${reason === 'missing' ? '' : ` (the one sent is ${reason === 'invalid' ? 'not valid' : reason === 'expired' ? 'expired' : 'used already'})`}. ${nothing}; try again ${asked.untilQuieterSeconds === undefined ? 'with a solution' : `in ${minutesIn(asked.untilQuieterSeconds)}`}.`;
  const why = {
    missing:
      'The service is busy, so this form needs a small proof of work from your browser (it runs by itself with JavaScript)',
    invalid: 'The proof of work sent with the form is not one this service made',
    expired: 'The proof of work sent with the form has expired (it works for 30 minutes)',
    spent: 'The proof of work sent with the form was used already (each works once)',
  }[reason];
  const when =
    asked.untilQuieterSeconds === undefined
      ? 'send the form again once the box below says it is done'
      : `send the form again once the box below says it is done, or in ${minutesIn(asked.untilQuieterSeconds)}, when the service asks for none`;
  return `${why}. ${nothing}; ${when}.`;
}
