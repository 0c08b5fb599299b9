import { ApiError } from "@/lib/http/errors";

// PostgreSQL unreachable, restarting or out of connections is nobody's input error and not a bug of
// ours: 503 with Retry-After, so clients retry (a screening's transaction has rolled back, or, when
// the connection died after COMMIT, the retry with the same id returns the stored answer).

export const DATABASE_RETRY_AFTER_SECONDS = 2;

const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);
// admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections; class 08: connection exception
const SQL_STATES = new Set(["57P01", "57P02", "57P03", "53300"]);
const PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);
const ADAPTER_KINDS = new Set([
  "DatabaseNotReachable",
  "ConnectionClosed",
  "SocketTimeout",
  "TooManyConnections",
]);
const MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection is closed|Cannot use a pool after calling end|the database system is (starting up|shutting down)/i;

type TChained = {
  code?: unknown;
  kind?: unknown;
  originalCode?: unknown;
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
  meta?: { driverAdapterError?: { cause?: unknown } };
};

function isConnectionFailure(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== "object" || depth > 6) return false;
  const e = err as TChained;
  for (const code of [e.code, e.originalCode]) {
    if (typeof code !== "string") continue;
    if (NETWORK_CODES.has(code) || SQL_STATES.has(code) || PRISMA_CODES.has(code) || code.startsWith("08"))
      return true;
  }
  if (typeof e.kind === "string" && ADAPTER_KINDS.has(e.kind)) return true;
  if (typeof e.message === "string" && MESSAGES.test(e.message)) return true;
  // AggregateError (a connection attempt to each address of a host) and the driver adapter's cause
  if (Array.isArray(e.errors) && e.errors.some((inner) => isConnectionFailure(inner, depth + 1))) return true;
  return (
    isConnectionFailure(e.cause, depth + 1) || isConnectionFailure(e.meta?.driverAdapterError, depth + 1)
  );
}

export function databaseUnavailable(err: unknown): ApiError | undefined {
  if (!isConnectionFailure(err)) return undefined;
  return new ApiError(
    503,
    "SERVICE_UNAVAILABLE",
    "The service is temporarily unavailable; retry later",
    undefined,
    {
      "Retry-After": String(DATABASE_RETRY_AFTER_SECONDS),
    },
  );
}
