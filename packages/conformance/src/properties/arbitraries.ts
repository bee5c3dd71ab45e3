import { taxonomy } from '@quotes/contract';
import fc from 'fast-check';
import type { OperationSpec } from '../contract/operations.js';
import type {
  CredentialKind,
  GeneratedCredential,
  GeneratedRequest,
  KeyTransport,
  QuoteOperationId,
  WireParameter,
} from './requestModel.js';

/**
 * Requests generated from the contract: parameter names and value sets come from the operations
 * and the taxonomy, never from a copy. Values are chosen so the contract decides each outcome
 * unambiguously (no `1e3`, `10.0`, `010`, ` 5` or literal `+`: JSON Schema and the contract leave
 * their reading open).
 */

type Encoding = 'percent' | 'plus' | 'loose';

/** Encodes a decoded value for the query string the way a given client would. */
export function encodeValue(value: string, encoding: Encoding): string {
  if (encoding === 'percent') return encodeURIComponent(value);
  if (encoding === 'plus') return encodeURIComponent(value).replaceAll('%20', '+');
  // Only what must be escaped (URL parsers drop tabs and newlines rather than encode them); fetch
  // percent-encodes the non-ASCII characters left as they are.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what must be escaped.
  const escaped = value.replace(/[%&=#+\u0000-\u001f\u007f]/g, (character) => encodeURIComponent(character));
  return escaped.replaceAll(' ', '+');
}

const encodingArb: fc.Arbitrary<Encoding> = fc.constantFrom('percent', 'plus', 'loose');

/** Upper, lower, or mixed case, character by character. */
function caseVariant(text: string): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constant(text),
    fc.constant(text.toLowerCase()),
    fc.constant(text.toUpperCase()),
    fc
      .array(fc.boolean(), { minLength: text.length, maxLength: text.length })
      .map((flips) =>
        [...text]
          .map((character, index) => (flips[index] ? character.toUpperCase() : character.toLowerCase()))
          .join(''),
      ),
  );
}

function substringOf(values: readonly string[]): fc.Arbitrary<string> {
  return fc
    .constantFrom(...values)
    .chain((value) =>
      fc
        .tuple(fc.nat({ max: value.length - 1 }), fc.nat({ max: value.length - 1 }))
        .map(([a, b]) => value.slice(Math.min(a, b), Math.max(a, b) + 1)),
    )
    .chain(caseVariant);
}

const nonAscii = fc.constantFrom('é', 'Grief é', 'Ωmega', '日本の知恵', '😀', 'ñandú', 'Жизнь', 'hope\u00a0optimism');
const unknownWords = fc.constantFrom(
  'jurassic',
  'zzz',
  'griefx',
  'hope & despair',
  'wisdom-philosophy',
  'null',
  'undefined',
  '*',
  '%',
  '_',
  "' OR 1=1 --",
);
/** Random text without `+` (its reading is left open) and without leading or trailing spaces. */
const randomText = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 30 })
  .map((text) => text.replaceAll('+', '').trim())
  .filter((text) => text.length > 0 && wellFormed(text));

function wellFormed(text: string): boolean {
  try {
    encodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}
const veryLong = fc.oneof(
  fc.integer({ min: 101, max: 900 }).map((length) => 'a'.repeat(length)),
  fc.constantFrom(...taxonomy.categories).map((value) => value.repeat(12)),
);

function textValue(values: readonly string[], substring: boolean, clean: boolean): fc.Arbitrary<string> {
  const valid = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...values).chain(caseVariant) },
    { weight: substring ? 2 : 0, arbitrary: substringOf(values) },
  );
  if (clean) return valid;
  return fc.oneof(
    { weight: 4, arbitrary: valid },
    { weight: substring ? 0 : 2, arbitrary: substringOf(values) },
    { weight: 1, arbitrary: unknownWords },
    { weight: 1, arbitrary: randomText },
    { weight: 1, arbitrary: nonAscii },
    { weight: 1, arbitrary: veryLong },
  );
}

function integerText(min: number, max: number, clean: boolean): fc.Arbitrary<string> {
  const valid = fc.oneof(
    { weight: 8, arbitrary: fc.integer({ min, max: Math.min(max, min + 120) }).map(String) },
    { weight: 2, arbitrary: fc.integer({ min, max }).map(String) },
    { weight: 1, arbitrary: fc.constantFrom(String(min), String(max)) },
  );
  if (clean) return valid;
  return fc.oneof(
    { weight: 3, arbitrary: valid },
    { weight: 1, arbitrary: fc.constantFrom(String(max + 1), String(min - 1)) },
    { weight: 1, arbitrary: fc.integer({ min: -1_000_000, max: -1 }).map(String) },
    { weight: 1, arbitrary: fc.constantFrom('99999999999999999999999', '2147483648', '9007199254740993') },
    { weight: 1, arbitrary: fc.constantFrom('2.5', '0.1', '-0.5', 'abc', 'ten', 'NaN', 'Infinity', 'true', '[]') },
  );
}

/** A value for one declared parameter of the operation; `clean` keeps to values the contract accepts. */
function valueFor(operation: OperationSpec, name: string, clean: boolean): fc.Arbitrary<string> {
  const schema = operation.parameters.find((parameter) => parameter.name === name)?.schema ?? {};
  switch (name) {
    case 'category':
      return textValue(taxonomy.categories, true, clean);
    case 'mood':
      return textValue(taxonomy.moods, true, clean);
    case 'length':
      return textValue(taxonomy.lengths, false, clean);
    case 'era':
      return textValue(taxonomy.eras, false, clean);
    case 'faith':
      return textValue(taxonomy.faithTraditions, false, clean);
    default:
      if (schema.type === 'integer')
        return integerText(Number(schema.minimum ?? 0), Number(schema.maximum ?? 1000), clean);
      return randomText;
  }
}

function wire(name: string, value: string | null, encoding: Encoding): WireParameter {
  const encodedName = encodeValue(name, encoding);
  return { name, value, wire: value === null ? encodedName : `${encodedName}=${encodeValue(value, encoding)}` };
}

/** Deliberate faults layered on an otherwise generated request. */
function faults(declared: readonly string[]): fc.Arbitrary<WireParameter[]> {
  const unknownName = fc
    .oneof(
      // Case variants and misspellings of real names: a misspelt filter must never be ignored.
      fc
        .constantFrom(...declared)
        .chain(caseVariant)
        .filter((name) => !declared.includes(name)),
      fc.constantFrom(
        'categroy',
        'moods',
        'q',
        'sort',
        'page',
        'api_key',
        'key',
        'filter',
        'faith_tradition',
        'limit',
        'offset',
      ),
      fc.stringMatching(/^[a-z_]{1,12}$/),
    )
    .filter((name) => !declared.includes(name));
  const unknown = fc
    .tuple(unknownName, fc.option(fc.oneof(fc.constant(''), randomText), { nil: null }), encodingArb)
    .map(([name, value, encoding]) => wire(name, value, encoding));
  const empty = fc
    .tuple(fc.constantFrom(...declared), fc.boolean())
    .map(([name, withEquals]) => ({ name, value: withEquals ? '' : null, wire: withEquals ? `${name}=` : name }));
  const malformed = fc
    .tuple(fc.constantFrom(...declared), fc.constantFrom('%FF', '%E0%A4', '%zz', '%', 'x%'))
    .map(([name, raw]): WireParameter => ({ name, value: raw, wire: `${name}=${raw}`, malformed: true }));
  return fc.array(
    fc.oneof({ weight: 3, arbitrary: unknown }, { weight: 2, arbitrary: empty }, { weight: 1, arbitrary: malformed }),
    { minLength: 1, maxLength: 2 },
  );
}

function parametersFor(operation: OperationSpec): fc.Arbitrary<WireParameter[]> {
  const declared = operation.parameters
    .filter((parameter) => parameter.in === 'query')
    .map((parameter) => parameter.name);
  if (declared.length === 0) return fc.constant([]);
  const given = (clean: boolean) =>
    fc
      .subarray(declared, { minLength: 0, maxLength: declared.length })
      .chain((names) =>
        fc.tuple(
          ...names.map((name) =>
            fc
              .tuple(valueFor(operation, name, clean), encodingArb)
              .map(([value, encoding]) => wire(name, value, encoding)),
          ),
        ),
      );
  // Half the requests keep to values the contract accepts, so the 200s and their invariants are
  // exercised as often as the rejections.
  const clean = given(true);
  const noisy = fc
    .tuple(
      given(false),
      fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 2, arbitrary: faults(declared) }),
      // Repeat one of the given parameters (same or another value).
      fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.nat() }),
      fc.nat(),
    )
    .map(([parameters, extra, repeatIndex, position]) => {
      const list = [...parameters];
      if (repeatIndex !== undefined && list.length > 0) {
        const repeated = list[repeatIndex % list.length]!;
        list.splice(position % (list.length + 1), 0, repeated);
      }
      for (const fault of extra ?? []) list.splice(position % (list.length + 1), 0, fault);
      return list;
    });
  return fc.oneof(clean, noisy);
}

export interface CredentialOptions {
  /** Plans with an active key to use. */
  readonly plans: readonly string[];
  /** Credential kinds available besides active plan keys (e.g. no revoked key on a remote target). */
  readonly kinds: readonly Exclude<CredentialKind, 'active'>[];
}

function credentialArb(options: CredentialOptions): fc.Arbitrary<GeneratedCredential> {
  const transport: fc.Arbitrary<KeyTransport> = fc.oneof(
    { weight: 6, arbitrary: fc.constant('header' as const) },
    { weight: 3, arbitrary: fc.constant('bearer' as const) },
    { weight: 1, arbitrary: fc.constant('both' as const) },
  );
  const active = fc
    .tuple(fc.constantFrom(...options.plans), transport)
    .map(([plan, via]) => ({ kind: 'active' as const, plan, transport: via }));
  if (options.kinds.length === 0) return active;
  const other = fc.tuple(fc.constantFrom(...options.kinds), transport).map(([kind, via]) => ({ kind, transport: via }));
  return fc.oneof({ weight: 8, arbitrary: active }, { weight: 2, arbitrary: other });
}

/**
 * Requests across the given operations: mostly the two quote operations with parameters, some
 * calls of the parameterless ones, credentials across plans and key states.
 */
export function requestArb(
  operations: readonly OperationSpec[],
  credentials: CredentialOptions,
): fc.Arbitrary<GeneratedRequest> {
  const weighted = operations.map((operation) => ({
    weight: operation.parameters.length > 0 ? 10 : 1,
    arbitrary: fc.tuple(parametersFor(operation), credentialArb(credentials)).map(([parameters, credential]) => ({
      operationId: operation.operationId as QuoteOperationId,
      credential,
      parameters,
    })),
  }));
  return fc.oneof(...weighted);
}
