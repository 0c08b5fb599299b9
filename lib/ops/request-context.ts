import { AsyncLocalStorage } from "node:async_hooks";

// The request id of the request being served, for log lines and the decision record. The store is
// entered by scripts/next-server.mjs around each request (it accepts or creates X-Request-Id there);
// shared through globalThis because that script and the bundles each load their own modules.

export type TRequestContext = { requestId: string };

const KEY = Symbol.for("rss.requestContext");

function storage(): AsyncLocalStorage<TRequestContext> {
  const g = globalThis as Record<symbol, AsyncLocalStorage<TRequestContext> | undefined>;
  return (g[KEY] ??= new AsyncLocalStorage<TRequestContext>());
}

/** The X-Request-Id of the request this code runs for; null outside a request (job runs, CLI, tests). */
export function currentRequestId(): string | null {
  return storage().getStore()?.requestId ?? null;
}

/** Runs `fn` as part of the request `requestId` (tests, and work started on a request's behalf). */
export function withRequestId<T>(requestId: string, fn: () => T): T {
  return storage().run({ requestId }, fn);
}
