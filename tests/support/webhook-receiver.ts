import { createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

// A webhook receiver as a client would write one from the interface text: it verifies the
// X-Service-Signature before parsing the body.

const TOLERANCE_MS = 300_000;

export function verifyServiceSignature(
  header: string | undefined,
  rawBody: string,
  secret: string,
  now = Date.now(),
): boolean {
  if (!header) return false;
  let t: string | undefined;
  let v1: string | undefined;
  for (const part of header.split(",")) {
    const trimmed = part.trim();
    if (trimmed.startsWith("t=")) t = trimmed.slice(2);
    else if (trimmed.startsWith("v1=")) v1 = trimmed.slice(3);
  }
  if (!t || !v1 || !/^\d+$/.test(t)) return false;
  if (Math.abs(now - Number(t)) > TOLERANCE_MS) return false;
  const expected = Buffer.from(createHmac("sha256", secret).update(`${t}.${rawBody}`).digest("hex"), "utf8");
  const given = Buffer.from(v1, "utf8");
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export type TReceived = {
  at: number;
  deliveryId: string;
  event: string;
  contentType: string;
  signature: string;
  verified: boolean;
  rawBody: string;
  body: unknown;
  answered: number;
};

export type TReceiver = {
  url: string;
  received: TReceived[];
  /** Status to answer the n-th request (0-based) of a delivery id. */
  respond: (deliveryId: string, nth: number) => number | Promise<number>;
  close: () => Promise<void>;
};

export async function startReceiver(
  secret: string,
  respond: TReceiver["respond"] = () => 200,
): Promise<TReceiver> {
  const received: TReceived[] = [];
  const receiver: TReceiver = { url: "", received, respond, close: async () => {} };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      void (async () => {
        const rawBody = Buffer.concat(chunks).toString("utf8");
        const header = (name: string) => String(req.headers[name] ?? "");
        const verified = verifyServiceSignature(
          req.headers["x-service-signature"] as string | undefined,
          rawBody,
          secret,
        );
        const deliveryId = header("x-service-delivery");
        const nth = received.filter((r) => r.deliveryId === deliveryId).length;
        const entry: TReceived = {
          at: Date.now(),
          deliveryId,
          event: header("x-service-event"),
          contentType: header("content-type"),
          signature: header("x-service-signature"),
          verified,
          rawBody,
          body: verified ? (JSON.parse(rawBody) as unknown) : null,
          answered: 0,
        };
        received.push(entry);
        entry.answered = verified ? await receiver.respond(deliveryId, nth) : 401;
        res.writeHead(entry.answered, { "content-type": "text/plain" });
        res.end(entry.answered < 300 ? "ok" : "no");
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}

export async function waitFor<T>(
  probe: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  timeoutMs = 30_000,
  what = "condition",
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
