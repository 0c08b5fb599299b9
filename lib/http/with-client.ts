import type { z } from "zod";
import {
  apiKeyHash,
  authenticateApiKey,
  authenticateApiKeyHash,
  authenticateApiKeyWithRead,
  guessClient,
  sameClientState,
  type TKeyedRead,
} from "@/lib/auth/api-keys";
import type { TClientContext } from "@/lib/clients/client-context";
import { env } from "@/lib/env";
import {
  ApiError,
  errorResponse,
  forbidden,
  knownApiError,
  unauthorized,
  validationError,
} from "@/lib/http/errors";
import { takeTokenShared } from "@/lib/http/rate-limit";
import { dbInputError } from "@/lib/http/db-input-errors";
import { databaseUnavailable } from "@/lib/http/db-unavailable";
import { nestingIssue } from "@/lib/validation/json-depth";
import { nulCharacterIssues } from "@/lib/validation/nul-characters";
import { parseWith } from "@/lib/validation/parse";
import { logDebug, logError } from "@/lib/log";

export const MAX_BODY_BYTES = 1024 * 1024;

type TRouteContext = { params: Promise<Record<string, string | string[]>> };

export type THandlerContext<P> = {
  req: Request;
  params: P;
  client: TClientContext;
  /** The parsed JSON body validated by the schema (400 VALIDATION_ERROR otherwise). */
  body: <S extends z.ZodType>(schema: S) => Promise<z.infer<S>>;
  /** The query string validated by the schema. */
  query: <S extends z.ZodType>(schema: S) => z.infer<S>;
};

type TOptions = {
  /** Client feature that must be enabled, else 403. */
  feature?: string;
  featureMessage?: string;
  businessOnly?: boolean;
};

/** The request body as JSON, refused over MAX_BODY_BYTES (413) or when malformed (400). */
export async function readJson(req: Request): Promise<unknown> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (req.body) {
    const reader = req.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_BODY_BYTES) {
        await reader.cancel();
        throw tooLarge();
      }
      chunks.push(value);
    }
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") throw validationError(["/: Request body must be a JSON object"]);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch (err) {
    throw validationError([
      `/: Malformed JSON (${err instanceof SyntaxError ? err.message : "unreadable body"})`,
    ]);
  }
  const tooDeep = nestingIssue(parsed);
  if (tooDeep) throw validationError([tooDeep]);
  return parsed;
}

function tooLarge(): ApiError {
  return new ApiError(413, "PAYLOAD_TOO_LARGE", `Request body exceeds ${MAX_BODY_BYTES} bytes`);
}

function bearerKey(req: Request): string | null {
  const auth = req.headers.get("authorization");
  if (auth) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    return match?.[1] ?? null;
  }
  return req.headers.get("x-api-key")?.trim() || null;
}

/** Node's error for a request whose client closed the connection before the body was read. */
function isClientAbort(err: unknown): boolean {
  return (
    err instanceof Error && err.message === "aborted" && (err as NodeJS.ErrnoException).code === "ECONNRESET"
  );
}

export function toErrorResponse(err: unknown): Response {
  const known = knownApiError(err);
  if (known) return errorResponse(known);
  const refused = dbInputError(err);
  if (refused) return errorResponse(refused);
  // Nobody is left to answer, and nothing went wrong on our side: routine, not an error. Checked
  // before the database's failures, whose network codes (ECONNRESET) it shares.
  if (isClientAbort(err)) {
    logDebug("client closed the connection during a /v1 request");
    return errorResponse(new ApiError(500, "INTERNAL_ERROR", "Internal server error"));
  }
  const unavailable = databaseUnavailable(err);
  if (unavailable) {
    logDebug("database unavailable during a /v1 request", { error: (err as Error).message });
    return errorResponse(unavailable);
  }
  logError("unhandled error in /v1 handler", err);
  return errorResponse(new ApiError(500, "INTERNAL_ERROR", "Internal server error"));
}

/** The single wrapper of every authenticated /v1 handler: key, client scope, limits, parsing, error mapping. */
export function withClient<P = Record<string, string>>(
  handler: (ctx: THandlerContext<P>) => Promise<unknown>,
  options: TOptions = {},
) {
  return async (req: Request, route: TRouteContext): Promise<Response> => {
    try {
      const key = bearerKey(req);
      if (!key) throw unauthorized("Missing API key");
      const client = await authenticateApiKey(key);
      if (!client) throw unauthorized("Invalid or revoked API key");
      await admit(client, options);

      const params = (await route.params) as P;
      const nulInParams = nulCharacterIssues(params);
      if (nulInParams.length) throw validationError(nulInParams);
      const url = new URL(req.url);
      const result = await handler({
        req,
        params,
        client,
        body: async (schema) => parseWith(schema, await readJson(req)),
        query: (schema) => parseWith(schema, Object.fromEntries(url.searchParams)),
      });
      if (result instanceof Response) return result;
      return Response.json(result);
    } catch (err) {
      return toErrorResponse(err);
    }
  };
}

/**
 * Charges the key's rate limit for work beyond the request itself (one token per screening a request
 * causes), before that work starts: 429 with Retry-After when the bucket cannot pay.
 */
export async function chargeRateLimit(client: TClientContext, tokens: number): Promise<void> {
  for (let i = 0; i < tokens; i++) {
    const taken = await takeTokenShared(client.apiKeyId, env.RATE_LIMIT_PER_SECOND);
    if (!taken.ok)
      throw new ApiError(429, "RATE_LIMITED", "Too many requests", undefined, {
        "Retry-After": String(taken.retryAfterSeconds),
      });
  }
}

/** 429 when the key is over its rate, 403 when the client may not use the route (withClient's order). */
async function admit(client: TClientContext, options: TOptions): Promise<void> {
  const limited = await takeTokenShared(client.apiKeyId, env.RATE_LIMIT_PER_SECOND);
  if (!limited.ok)
    throw new ApiError(429, "RATE_LIMITED", "Too many requests", undefined, {
      "Retry-After": String(limited.retryAfterSeconds),
    });
  if (options.businessOnly && client.type !== "business")
    throw forbidden("This endpoint is available to business clients only");
  if (options.feature && !client.features.has(options.feature))
    throw forbidden(options.featureMessage ?? `Feature ${options.feature} is not enabled for this client`);
}

/**
 * withClient for a POST whose first database read can travel in the statement of the API key read
 * (one round trip less): the body is validated first (no database), then one statement reads the key
 * and the handler's read, planned for the client this key resolved to last time in this process and
 * scoped by the key's client id in that same statement. The read is handed over only when the key
 * still belongs to that client at the same cache versions; otherwise (and for a key not seen yet, or
 * when `plan` answers null) the handler reads for itself. The key is never cached: a revoked key is
 * refused by this very statement. Errors keep withClient's precedence: 401, 429, 403, then the
 * body's 400 / 413 (an invalid body is only reported to a valid key).
 */
export function withClientRead<S extends z.ZodType, R>(
  schema: S,
  plan: (
    guess: TClientContext,
    body: z.infer<S>,
  ) => Promise<(TKeyedRead & { result: (row: Record<string, unknown>) => R }) | null>,
  handler: (ctx: {
    req: Request;
    client: TClientContext;
    body: z.infer<S>;
    prefetched: R | null;
  }) => Promise<unknown>,
  options: TOptions = {},
) {
  return async (req: Request): Promise<Response> => {
    try {
      const key = bearerKey(req);
      if (!key) throw unauthorized("Missing API key");
      let body: z.infer<S> | undefined;
      let invalid: unknown = null;
      try {
        body = parseWith(schema, await readJson(req));
      } catch (err) {
        invalid = err;
      }
      const hash = apiKeyHash(key);
      const guess = invalid === null && hash !== null ? guessClient(hash) : undefined;
      // a plan that cannot be made (say the guessed client is gone) falls back to the plain key read
      const planned = guess ? await plan(guess, body!).catch(() => null) : null;
      let client: TClientContext | null;
      let prefetched: R | null = null;
      if (planned) {
        const keyed = await authenticateApiKeyWithRead(hash, planned);
        client = keyed.client;
        if (client && keyed.row && sameClientState(client, guess!)) prefetched = planned.result(keyed.row);
      } else client = await authenticateApiKeyHash(hash);
      if (!client) throw unauthorized("Invalid or revoked API key");
      await admit(client, options);
      if (invalid !== null) throw invalid;
      const result = await handler({ req, client, body: body!, prefetched });
      if (result instanceof Response) return result;
      return Response.json(result);
    } catch (err) {
      return toErrorResponse(err);
    }
  };
}

/** For the few public routes: same error mapping, no key. */
export function withPublic(handler: (req: Request) => Promise<unknown>) {
  return async (req: Request): Promise<Response> => {
    try {
      const result = await handler(req);
      return result instanceof Response ? result : Response.json(result);
    } catch (err) {
      return toErrorResponse(err);
    }
  };
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type TMethod = (typeof METHODS)[number];
type THandler = (req: Request, route: TRouteContext) => Promise<Response>;

function methodNotAllowed(allowed: string[]): THandler {
  const handler: THandler = async () =>
    errorResponse(
      new ApiError(405, "METHOD_NOT_ALLOWED", `Method not allowed; use ${allowed.join(", ")}`, undefined, {
        Allow: allowed.join(", "),
      }),
    );
  return Object.assign(handler, { methodNotAllowed: true });
}

/** Route exports with a 405 in the contract's error body for every method the route does not serve. */
export function methods(handlers: Partial<Record<TMethod, THandler>>): Record<TMethod, THandler> {
  const allowed = METHODS.filter((m) => handlers[m]);
  const fallback = methodNotAllowed(allowed);
  return Object.fromEntries(METHODS.map((m) => [m, handlers[m] ?? fallback])) as Record<TMethod, THandler>;
}
