import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { env } from "@/lib/env";
import { isPrivateAddress, privateTargetsAllowed } from "@/lib/webhooks/url-guard";

export type TPostResult = {
  startedAt: number;
  durationMs: number;
  responseStatus: number | null;
  error: string | null;
};

// Keep-alive pools: most receivers take many deliveries, and a TLS handshake per delivery dominates otherwise.
const agents = {
  "http:": new http.Agent({ keepAlive: true, maxSockets: 32 }),
  "https:": new https.Agent({ keepAlive: true, maxSockets: 32 }),
};

class PrivateTargetError extends Error {
  constructor(address: string) {
    super(`Refusing to connect to non-public address ${address}`);
    this.name = "PrivateTargetError";
  }
}

/** DNS lookup that refuses private addresses, so the check applies to the address actually connected to. */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
    if (err) return callback(err, "", 0);
    const refused = addresses.find((a) => isPrivateAddress(a.address));
    if (refused) return callback(new PrivateTargetError(refused.address), "", 0);
    const first = addresses[0];
    if (!first) return callback(new Error(`No address for ${hostname}`), "", 0);
    if (options.all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    else callback(null, first.address, first.family);
  });
};

/**
 * One POST of a webhook body. Never throws: every outcome is data for the attempt log.
 * Redirects are not followed (a 3xx is a failed attempt), the whole exchange is bounded by the
 * timeout, and the response body is discarded.
 */
export async function postWebhook({
  url,
  body,
  headers,
  timeoutMs = env.WEBHOOK_TIMEOUT_MS,
  allowPrivate = privateTargetsAllowed(),
}: {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs?: number;
  allowPrivate?: boolean;
}): Promise<TPostResult> {
  const startedAt = Date.now();
  const done = (responseStatus: number | null, error: string | null): TPostResult => ({
    startedAt,
    durationMs: Date.now() - startedAt,
    responseStatus,
    error: error === null ? null : error.slice(0, 1000),
  });

  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return done(null, "Invalid URL");
  }
  if (target.protocol !== "http:" && target.protocol !== "https:")
    return done(null, "Unsupported URL scheme");
  const literal = target.hostname.replace(/^\[|\]$/g, "");
  if (!allowPrivate && isIP(literal) && isPrivateAddress(literal))
    return done(null, new PrivateTargetError(literal).message);

  const transport = target.protocol === "https:" ? https : http;
  const signal = AbortSignal.timeout(timeoutMs);
  const send = (retried: boolean): Promise<TPostResult> =>
    new Promise<TPostResult>((resolve) => {
      const req = transport.request(
        target,
        {
          method: "POST",
          agent: agents[target.protocol as "http:" | "https:"],
          headers: { ...headers, "Content-Length": String(Buffer.byteLength(body)) },
          lookup: allowPrivate ? undefined : guardedLookup,
          signal,
        },
        (res) => {
          const status = res.statusCode ?? 0;
          res.resume();
          res.on("end", () => resolve(done(status, status >= 200 && status < 300 ? null : `HTTP ${status}`)));
          res.on("error", (err) => resolve(done(status, describe(err, timeoutMs))));
        },
      );
      req.on("error", (err) => {
        // A kept-alive socket the receiver closed while idle fails the next request on it before any
        // answer (Node's documented keep-alive race): send once more, on another socket.
        const code = (err as NodeJS.ErrnoException).code;
        if (!retried && req.reusedSocket && (code === "ECONNRESET" || code === "EPIPE"))
          return resolve(send(true));
        resolve(done(null, describe(err, timeoutMs)));
      });
      req.end(body);
    });
  return send(false);
}

function describe(err: Error, timeoutMs: number): string {
  if (err.name === "AbortError" || err.name === "TimeoutError") return `Timed out after ${timeoutMs} ms`;
  const code = (err as NodeJS.ErrnoException).code;
  return code && !err.message.includes(code) ? `${code}: ${err.message}` : err.message;
}
