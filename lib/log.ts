import { currentRequestId } from "@/lib/ops/request-context";

// Structured logs on stderr; never sent to clients. A line written while serving a request carries
// its X-Request-Id.

function line(level: string, message: string, fields: Record<string, unknown>): string {
  const requestId = currentRequestId();
  return JSON.stringify({
    level,
    time: new Date().toISOString(),
    ...(requestId ? { requestId } : {}),
    message,
    ...fields,
  });
}

export function logError(message: string, err?: unknown): void {
  const detail = err instanceof Error ? { error: err.message, stack: err.stack } : { error: err };
  console.error(line("error", message, detail));
}

export function logInfo(message: string, fields: Record<string, unknown> = {}): void {
  if (process.env.NODE_ENV === "test") return;
  console.log(line("info", message, fields));
}

/** Only with LOG_LEVEL=debug (read here, not through lib/env, which this module must not import). */
export function logDebug(message: string, fields: Record<string, unknown> = {}): void {
  if (process.env.LOG_LEVEL !== "debug") return;
  console.log(line("debug", message, fields));
}
