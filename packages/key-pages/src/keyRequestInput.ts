import { taxonomy } from '@quotes/contract';
import { type KeyRequestInput, keyRequestTextFields, requireEmail } from '@quotes/accounts';
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

const fieldsShown: Record<string, string> = { accept_terms: 'accept_terms' };

function describe(error: SchemaError, field: string): string {
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not a field of a key request';
    case 'maxLength':
      return `must be at most ${String(error.params.limit)} characters`;
    case 'minLength':
      return 'must not be empty';
    case 'pattern':
      return 'must not contain control characters';
    case 'format':
      return 'must be an e-mail address';
    case 'enum':
      return field === 'accept_terms' ? 'the terms must be accepted' : `must be one of ${taxonomy.plans.join(', ')}`;
    case 'type':
      return `must be a ${String(error.params.type)}`;
    default:
      return 'is not valid';
  }
}

function fieldOf(error: SchemaError): string {
  const missing = error.params.missingProperty ?? error.params.additionalProperty;
  if (typeof missing === 'string') return missing;
  const [, , field] = error.instancePath.split('/');
  return field ? (fieldsShown[field] ?? field) : 'body';
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
      else found.set(field, [checked.message]);
    }
    if (typeof body.email === 'string' && !found.has('email')) {
      try {
        body.email = requireEmail(body.email);
      } catch {
        found.set('email', ['must be an e-mail address']);
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
