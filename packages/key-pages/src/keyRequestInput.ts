import { taxonomy } from '@quotes/contract';
import { type KeyRequestInput, keyRequestTextFields, requireEmail } from '@quotes/accounts';
import { emailAddressProblem } from '@quotes/accounts/rules';
import { contractBackend } from '@quotes/service-base';
import type { ParameterError } from '@quotes/service-base/problems';
import { checkTextField } from '@quotes/text-rules';

type TextFieldName = keyof typeof keyRequestTextFields;
const textFieldNames = Object.keys(keyRequestTextFields) as TextFieldName[];

interface SchemaError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
}

/** Each field of the form by the label a person sees beside it; errors name fields by these. */
export const keyRequestFieldLabels = {
  email: 'E-mail address',
  name: 'Your name',
  application: 'Application',
  plan: 'Plan',
  use: 'What the key is for',
  accept_terms: 'Terms of use',
} as const;
export type KeyRequestField = keyof typeof keyRequestFieldLabels;

const labelOf = (field: string) => keyRequestFieldLabels[field as KeyRequestField] ?? field;

/** What to do about a field left out or empty, said to the person filling the form. */
const missingText: Record<KeyRequestField, string> = {
  email: 'Enter your e-mail address: the link and the key are sent there.',
  name: 'Enter your name.',
  application: 'Enter the name of the application the key is for.',
  plan: 'Choose a plan.',
  use: 'Say in a few words what the key is for.',
  accept_terms: 'Tick the box to accept the terms of use: no key is issued without them.',
};

/** An address as shown back in a message: the person's own text, cut short when long. */
const shownAddress = (text: string) => ([...text].length > 60 ? `${[...text].slice(0, 59).join('')}…` : text);

/** Why `text` is not an e-mail address, in the form's words: "ann@example has no domain ending such as .com". */
function emailText(text: string): string {
  const problem = emailAddressProblem(text) ?? 'is not an address mail can be sent to';
  return problem === 'is empty' ? missingText.email : `${shownAddress(text)} ${problem}.`;
}

function describe(error: SchemaError, field: string): string {
  switch (error.keyword) {
    case 'required':
    case 'minLength':
      return missingText[field as KeyRequestField] ?? `${labelOf(field)} is required.`;
    case 'additionalProperties':
      return `${field} is not a field of a key request.`;
    case 'maxLength':
      return `${labelOf(field)} must be at most ${String(error.params.limit)} characters.`;
    case 'enum':
      return field === 'accept_terms'
        ? missingText.accept_terms
        : `Choose one of the plans listed (${taxonomy.plans.join(', ')}).`;
    case 'type':
      return `${labelOf(field)} must be ${error.params.type === 'string' ? 'text' : `a ${String(error.params.type)}`}.`;
    default:
      return `${labelOf(field)} is not valid.`;
  }
}

function fieldOf(error: SchemaError): string {
  const missing = error.params.missingProperty ?? error.params.additionalProperty;
  if (typeof missing === 'string') return missing;
  const [, , field] = error.instancePath.split('/');
  return field ?? 'body';
}

export type BodyValidator = (body: unknown) => { input: KeyRequestInput } | { errors: ParameterError[] };

/**
 * The body of `POST /keys/requests` checked by the contract's own schema (openapi-backend's
 * compiled validator for requestKey), every bad field named. Form posts carry strings: the
 * checkbox's value stands for `accept_terms: true`.
 */
export async function keyRequestValidator(): Promise<BodyValidator> {
  const api = await contractBackend();
  const validators = api.validator.getRequestValidatorsForOperation('requestKey');
  return (raw) => {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
      return { errors: [{ parameter: 'body', message: 'must be a JSON object or a form' }] };
    // Own properties only (fromEntries): a field named __proto__ is an unknown field, not a prototype.
    const body: Record<string, unknown> = Object.fromEntries(
      Object.entries(raw).map(([name, value]) => [name, typeof value === 'string' ? value.trim() : value]),
    );
    if (body.accept_terms === 'true' || body.accept_terms === 'on') body.accept_terms = true;
    if (body.homepage === '') delete body.homepage;
    // A textarea posts CR LF: counted and kept as the rule keeps it, one character per line break.
    if (typeof body.use === 'string') body.use = body.use.replace(/\r\n?/g, '\n');
    const request = { requestBody: body, query: {}, headers: {}, params: {}, path: {}, cookies: {} };
    const found = new Map<string, string[]>();
    for (const validate of validators) {
      if (validate(request)) continue;
      for (const error of (validate.errors ?? []) as SchemaError[]) {
        const field = fieldOf(error);
        const list = found.get(field) ?? [];
        const message = describe(error, field);
        if (!list.includes(message)) list.push(message);
        found.set(field, list);
      }
    }
    // The text rule's words replace the schema's for the same field: it refuses all the schema's pattern does, and more.
    for (const field of textFieldNames) {
      const value = body[field];
      if (typeof value !== 'string') continue;
      const checked = checkTextField(value, keyRequestTextFields[field]);
      if ('text' in checked) body[field] = checked.text;
      else if (value === '') found.set(field, [missingText[field]]);
      else found.set(field, [`${labelOf(field)} ${checked.message}.`]);
    }
    // The address rule's words replace the schema's: the operator's tools refuse what it refuses.
    const email = body.email;
    if (typeof email === 'string') {
      try {
        body.email = requireEmail(email);
        if (found.has('email')) found.set('email', [emailText(email)]);
      } catch {
        found.set('email', [emailText(email)]);
      }
    }
    if (found.size > 0)
      return { errors: [...found].map(([parameter, messages]) => ({ parameter, message: messages.join('; ') })) };
    return {
      input: {
        email: body.email as string,
        name: body.name as string,
        application: body.application as string,
        plan: typeof body.plan === 'string' ? body.plan : 'trial',
        use: body.use as string,
        honeypot: typeof body.homepage === 'string' && body.homepage !== '',
      },
    };
  };
}
