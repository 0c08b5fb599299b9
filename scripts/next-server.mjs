/* global process */
// The entry of every `npm start` server process: `next start` itself, with what Next.js does not
// offer. The process owns its signals (NEXT_MANUAL_SIG_HANDLE), so that SIGTERM drains it within
// SHUTDOWN_GRACE_MS (lib/ops/graceful-shutdown.ts) instead of Next's immediate exit, and the HTTP
// server is kept where that code can close it. Every request gets an X-Request-Id (the caller's when
// it is short and plain, else a new one), answered on every response and kept for the request's log
// lines and decision (lib/ops/request-context.ts). Plain JavaScript: it runs before any bundler.
// Usage: node scripts/next-server.mjs start -p PORT
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";

process.env.NEXT_MANUAL_SIG_HANDLE = "1";

/** Bounded, and only characters that are safe in a log line, a header and a URL. */
const ACCEPTED_REQUEST_ID = /^[A-Za-z0-9._:@+=-]{1,128}$/;
const requestContext = (globalThis[Symbol.for("rss.requestContext")] ??= new AsyncLocalStorage());

const createServer = http.createServer;
http.createServer = function (...args) {
  const listener = typeof args.at(-1) === "function" ? args.pop() : null;
  const server = createServer.apply(this, args);
  globalThis[Symbol.for("rss.httpServer")] ??= server;
  server.on("request", (req, res) => {
    const given = req.headers["x-request-id"];
    const requestId = typeof given === "string" && ACCEPTED_REQUEST_ID.test(given) ? given : randomUUID();
    req.headers["x-request-id"] = requestId;
    res.setHeader("X-Request-Id", requestId);
    // Once draining, every answer closes its connection, so keep-alive clients reconnect elsewhere.
    if (globalThis.rssLifecycle?.drainingSince != null) res.setHeader("Connection", "close");
    const started = process.hrtime.bigint();
    res.once("finish", () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      globalThis[Symbol.for("rss.observeRequest")]?.(req.method, req.url ?? "/", res.statusCode, seconds);
    });
    if (listener) requestContext.run({ requestId }, () => listener(req, res));
  });
  return server;
};

const nextBin = path.resolve("node_modules/next/dist/bin/next");
process.argv = [process.argv[0], nextBin, ...process.argv.slice(2)];
await import(pathToFileURL(nextBin).href);
