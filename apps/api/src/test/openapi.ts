/**
 * The parts of the server's own OpenAPI document (GET /api/v1/openapi.json) that the generated
 * sweeps read: the hostile-input and hostile-values sweeps and the sqlmap targets.
 */
export interface JsonSchema {
  type?: string | string[];
  /** OpenAPI 3.0's way of allowing null as well (zod's `.nullable()` in the contracts). */
  nullable?: boolean;
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

export interface OpenApiOperation {
  parameters?: { in: 'query' | 'path' | 'header' | 'cookie'; name: string; required?: boolean; schema: JsonSchema }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
}

/** A body schema's object variants: one for a plain object, one per branch of a union. */
export function variantsOf(schema: JsonSchema): JsonSchema[] {
  const branches = schema.oneOf ?? schema.anyOf;
  return branches ? branches.flatMap(variantsOf) : [schema];
}

/** Properties with a single allowed value (a union's `kind`) pick the branch; they are sent as is. */
export function discriminatorsOf(variant: JsonSchema): Record<string, unknown> {
  const fixed: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(variant.properties ?? {})) {
    if (property.enum?.length === 1) fixed[name] = property.enum[0];
    else if (property.const !== undefined) fixed[name] = property.const;
  }
  return fixed;
}
