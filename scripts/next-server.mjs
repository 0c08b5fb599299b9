/* global process */
// The entry of every `npm start` server process: `next start` itself, with two things Next.js does
// not offer. The process owns its signals (NEXT_MANUAL_SIG_HANDLE), so that SIGTERM drains it within
// SHUTDOWN_GRACE_MS (lib/ops/graceful-shutdown.ts) instead of Next's immediate exit; and the HTTP
// server is kept where that code can close it. Plain JavaScript: it runs before any bundler or loader.
// Usage: node scripts/next-server.mjs start -p PORT
import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";

process.env.NEXT_MANUAL_SIG_HANDLE = "1";

const createServer = http.createServer;
http.createServer = function (...args) {
  const server = createServer.apply(this, args);
  globalThis[Symbol.for("rss.httpServer")] ??= server;
  server.on("request", (_req, res) => {
    // Once draining, every answer closes its connection, so keep-alive clients reconnect elsewhere.
    if (globalThis.rssLifecycle?.drainingSince != null && !res.headersSent)
      res.setHeader("Connection", "close");
  });
  return server;
};

const nextBin = path.resolve("node_modules/next/dist/bin/next");
process.argv = [process.argv[0], nextBin, ...process.argv.slice(2)];
await import(pathToFileURL(nextBin).href);
