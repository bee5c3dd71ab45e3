/**
 * OpenAPI 3.0 schemas are a dialect of JSON Schema: `nullable: true` widens the type to null and
 * `example` is an annotation Ajv does not know. This turns one into plain JSON Schema (draft-07)
 * and points `#/components/schemas/X` references at `#/definitions/X` of one combined document.
 */
export function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (node === null || typeof node !== 'object') return node;
  const source = node as Record<string, unknown>;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === 'nullable' || key === 'example' || key === 'externalDocs' || key === 'xml') continue;
    // Specification extensions (`x-characters` on Length) are data for other readers, not keywords.
    if (key.startsWith('x-')) continue;
    if (key === 'deprecated' || key === 'readOnly' || key === 'writeOnly') continue;
    if (key === '$ref' && typeof value === 'string') {
      result.$ref = value.replace(/^#\/components\/schemas\//, '#/definitions/');
      continue;
    }
    // `properties` maps names to schemas: convert the schemas, keep every name (even "example").
    if (key === 'properties' && value && typeof value === 'object') {
      result.properties = Object.fromEntries(
        Object.entries(value).map(([name, schema]) => [name, toJsonSchema(schema)]),
      );
      continue;
    }
    result[key] = toJsonSchema(value);
  }
  // OAS 3.0 ignores `nullable` next to `$ref` and without `type`; so do we.
  if (source.nullable === true && typeof source.type === 'string') {
    result.type = [source.type, 'null'];
    if (Array.isArray(source.enum) && !source.enum.includes(null)) result.enum = [...source.enum, null];
  }
  return result;
}
