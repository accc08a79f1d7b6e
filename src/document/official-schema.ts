// The verdict of the current official OpenAPI schema on a document. swagger-parser bundles the
// 3.1 schema of an early draft (it refuses a license without `identifier`, and `scheme: Bearer`),
// so the schemas come from @seriousme/openapi-schema-validator, which tracks the OpenAPI
// Initiative's published schemas and is tested on the APIs.guru collection.
import type { ErrorObject } from 'ajv';
import { getAtPointer } from './json-pointer.ts';

export interface OfficialVerdict {
  /** Violations that make the document something other than OpenAPI: the load is refused. */
  errors: string[];
  /** Flaws that real documents commonly have and that do not stop the toolkit from using them. */
  warnings: string[];
}

type ValidatorInstance = { validate(data: object): Promise<{ valid: boolean; errors?: ErrorObject[] | string }> };
let validator: Promise<ValidatorInstance> | undefined;

/** Judges a bundled document (internal `$ref`s only) by the official schema of its version. */
export async function officialVerdict(document: object, tolerated: string[] = []): Promise<OfficialVerdict> {
  validator ??= import('@seriousme/openapi-schema-validator').then(
    ({ Validator }) => new Validator({ allErrors: true }) as unknown as ValidatorInstance,
  );
  const result = await (await validator).validate(document);
  if (result.valid) return { errors: [], warnings: [] };
  // A message instead of a list: the validator's own reference check stumbled on something the
  // schema allows (a property named `$ref` or `$id`, as GitHub's and Appwrite's have). The
  // document's version was checked before, so this says nothing the toolkit cannot read.
  if (typeof result.errors === 'string')
    return { errors: [], warnings: [`the official schema's checker could not finish: ${result.errors}`] };
  // Places the lenient loader already named (lenient.ts): their errors say nothing new.
  const places = tolerated.map((pointer) => pointer.slice(1));
  // (A `properties` given by a $ref, or a `type` that is no JSON type, is refused at the schema
  // that holds it, as no branch of the schema-or-reference choice fits.)
  const named = (path: string) =>
    places.some(
      (place) =>
        path === place || path.startsWith(`${place}/`) || place === `${path}/properties` || place === `${path}/type`,
    );
  const rest = (result.errors ?? []).filter((error) => !named(error.instancePath));
  if (rest.length === 0) return { errors: [], warnings: [] };
  return classify(rest, document);
}

/**
 * With allErrors, one misplaced value yields an error per branch of every oneOf it could have
 * matched (`must have required property '$ref'`, `must match exactly one schema`); only the
 * deepest errors at each place say what is wrong, so the branch noise is dropped.
 */
function classify(errors: ErrorObject[], document: object): OfficialVerdict {
  const deepest = errors.filter(
    (error) => !NOISE.has(error.keyword) && !(error.keyword === 'required' && error.params.missingProperty === '$ref'),
  );
  const chosen = deepest.length > 0 ? deepest : errors;
  const verdict: OfficialVerdict = { errors: [], warnings: [] };
  const seen = new Set<string>();
  for (const error of chosen) {
    const line = describe(error);
    if (seen.has(line)) continue;
    seen.add(line);
    (isCommonFlaw(error, document) ? verdict.warnings : verdict.errors).push(line);
  }
  return verdict;
}

const NOISE = new Set(['oneOf', 'anyOf', 'if', 'then', 'else', '$ref', 'not']);

function describe(error: ErrorObject): string {
  const extra = error.params.additionalProperty ?? error.params.unevaluatedProperty;
  return `#${error.instancePath}: ${error.message ?? 'is invalid'}${extra ? ` ('${String(extra)}')` : ''}`;
}

/**
 * Flaws found in real published documents (Stripe, GitHub, OpenAI, DigitalOcean) that Prism and
 * most tools accept: the toolkit can still read them, so they warn instead of refusing.
 */
function isCommonFlaw(error: ErrorObject, document: object): boolean {
  // Duplicate `required` or `enum` items: the list means the same without the repeat.
  if (error.keyword === 'uniqueItems') return true;
  // A `$ref` where OpenAPI allows none (an operation, a single response field): the reference
  // resolves, and the toolkit reads the dereferenced object.
  const target = getAtPointer(document, error.instancePath);
  if (target !== null && typeof target === 'object' && '$ref' in target) return true;
  // A property that only an extension or a newer minor version knows: ignored, as tools do.
  if (error.keyword === 'additionalProperties' || error.keyword === 'unevaluatedProperties') return true;
  // A malformed `format` value (a relative URL in termsOfService, an email with a name) says
  // nothing about requests and answers.
  return error.keyword === 'format';
}
