// Structured logs on stderr; never sent to clients.
export function logError(message: string, err?: unknown): void {
  const detail = err instanceof Error ? { error: err.message, stack: err.stack } : { error: err };
  console.error(JSON.stringify({ level: "error", time: new Date().toISOString(), message, ...detail }));
}

export function logInfo(message: string, fields: Record<string, unknown> = {}): void {
  if (process.env.NODE_ENV === "test") return;
  console.log(JSON.stringify({ level: "info", time: new Date().toISOString(), message, ...fields }));
}

/** Only with LOG_LEVEL=debug (read here, not through lib/env, which this module must not import). */
export function logDebug(message: string, fields: Record<string, unknown> = {}): void {
  if (process.env.LOG_LEVEL !== "debug") return;
  console.log(JSON.stringify({ level: "debug", time: new Date().toISOString(), message, ...fields }));
}
