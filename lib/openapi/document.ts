import { z } from "zod";
import { endpoints, type TEndpoint } from "@/lib/openapi/registry";
import "@/lib/openapi/endpoints";

type TJson = Record<string, unknown>;

function schemaOf(schema: z.ZodType, io: "input" | "output"): TJson {
  const json = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as TJson;
  delete json.$schema;
  return json;
}

const ErrorBody: TJson = {
  type: "object",
  required: ["error", "timestamp"],
  properties: {
    error: {
      type: "object",
      required: ["type", "message"],
      properties: {
        type: {
          type: "string",
          enum: [
            "VALIDATION_ERROR",
            "UNAUTHORIZED",
            "FORBIDDEN",
            "NOT_FOUND",
            "METHOD_NOT_ALLOWED",
            "PAYLOAD_TOO_LARGE",
            "RATE_LIMITED",
            "INTERNAL_ERROR",
            "SERVICE_UNAVAILABLE",
          ],
        },
        message: { type: "string" },
        details: { type: "array", items: { type: "string" } },
      },
    },
    timestamp: { type: "number" },
  },
};

const DEFAULT_ERRORS: Record<number, string> = {
  400: "Validation failed (VALIDATION_ERROR)",
  401: "Missing, unknown or revoked API key (UNAUTHORIZED)",
  413: "Body over 1 MiB (PAYLOAD_TOO_LARGE)",
  429: "Rate limit exceeded; see Retry-After (RATE_LIMITED)",
  500: "Internal error (INTERNAL_ERROR)",
  503: "Database unreachable or restarting; retry after Retry-After seconds (SERVICE_UNAVAILABLE)",
};

function queryParameters(schema: z.ZodType): TJson[] {
  const json = schemaOf(schema, "input") as { properties?: Record<string, TJson>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, s]) => ({
    name,
    in: "query",
    required: json.required?.includes(name) ?? false,
    schema: s,
  }));
}

function operation(e: TEndpoint): TJson {
  const pathParams = [...e.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: "path",
    required: true,
    schema: { type: "string" },
  }));
  const errors: Record<number, string> = e.public ? {} : { ...DEFAULT_ERRORS };
  for (const [code, text] of Object.entries(e.errors ?? {})) errors[Number(code)] = text;
  const responses: TJson = {
    "200": {
      description: "Success",
      content: { "application/json": { schema: e.response ? schemaOf(e.response, "output") : {} } },
    },
  };
  for (const [code, description] of Object.entries(errors)) {
    responses[code] = {
      description,
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
    };
  }
  return {
    operationId: `${e.method}${e.path.replace(/[^a-zA-Z0-9]+(\w)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ""))}`,
    summary: e.summary,
    ...(e.description && { description: e.description }),
    tags: [e.tag],
    ...(e.public && { security: [] }),
    parameters: [...pathParams, ...(e.query ? queryParameters(e.query) : [])],
    ...(e.body && {
      requestBody: { required: true, content: { "application/json": { schema: schemaOf(e.body, "input") } } },
    }),
    responses,
  };
}

export function buildOpenApiDocument(): TJson {
  const paths: Record<string, TJson> = {};
  for (const e of [...endpoints].sort((a, b) => a.path.localeCompare(b.path))) {
    paths[e.path] = { ...(paths[e.path] ?? {}), [e.method]: operation(e) };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Risk Screening Service API",
      version: "1.0.0",
      description:
        "Fraud and AML screening for transactions, users, merchants, payment instruments and events. " +
        "Authenticate with `Authorization: Bearer <key>` (or `X-API-Key`). All timestamps are epoch milliseconds. " +
        "Errors share one body: `{ error: { type, message, details? }, timestamp }`.",
    },
    servers: [{ url: "/" }],
    security: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
    components: {
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer" },
        apiKeyHeader: { type: "apiKey", in: "header", name: "X-API-Key" },
      },
      schemas: { Error: ErrorBody },
    },
    paths,
  };
}
