import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postWebhook } from "@/lib/webhooks/post-webhook";

let server: http.Server;
let base: string;
const hits: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.push(req.url ?? "");
    req.resume();
    // A receiver that closed the kept-alive connection: the request on a reused socket gets no answer.
    if (req.url === "/stale" && (req.socket as { served?: boolean }).served) return req.socket.destroy();
    (req.socket as { served?: boolean }).served = true;
    if (req.url === "/redirect") res.writeHead(307, { location: "/target" }).end();
    else if (req.url === "/slow") setTimeout(() => res.writeHead(200).end(), 2000);
    else res.writeHead(req.url === "/fail" ? 503 : 202).end("ok");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const post = (path: string, opts: { allowPrivate?: boolean; timeoutMs?: number; host?: string } = {}) =>
  postWebhook({
    url: `${opts.host ? base.replace("127.0.0.1", opts.host) : base}${path}`,
    body: "{}",
    headers: { "Content-Type": "application/json" },
    allowPrivate: opts.allowPrivate ?? true,
    timeoutMs: opts.timeoutMs ?? 5000,
  });

describe("postWebhook", () => {
  it("reports any 2xx as success and other statuses as errors", async () => {
    expect(await post("/ok")).toMatchObject({ responseStatus: 202, error: null });
    expect(await post("/fail")).toMatchObject({ responseStatus: 503, error: "HTTP 503" });
  });

  it("does not follow redirects", async () => {
    hits.length = 0;
    expect(await post("/redirect")).toMatchObject({ responseStatus: 307, error: "HTTP 307" });
    expect(hits).toEqual(["/redirect"]);
  });

  it("gives up after the timeout", async () => {
    const res = await post("/slow", { timeoutMs: 200 });
    expect(res).toMatchObject({ responseStatus: null, error: "Timed out after 200 ms" });
  });

  it("refuses loopback targets when private targets are not allowed, by literal address and after DNS", async () => {
    hits.length = 0;
    expect((await post("/ok", { allowPrivate: false })).error).toMatch(/non-public address 127\.0\.0\.1/);
    expect((await post("/ok", { allowPrivate: false, host: "localhost" })).error).toMatch(
      /non-public address/,
    );
    expect(hits).toEqual([]);
  });

  it("sends once more on a new connection when a kept-alive one turns out closed", async () => {
    hits.length = 0;
    expect(await post("/ok")).toMatchObject({ responseStatus: 202, error: null });
    expect(await post("/stale")).toMatchObject({ responseStatus: 202, error: null });
    expect(hits).toEqual(["/ok", "/stale", "/stale"]);
  });

  it("reports connection failures as data, never throws", async () => {
    const res = await postWebhook({
      url: "http://127.0.0.1:1/x",
      body: "{}",
      headers: {},
      allowPrivate: true,
    });
    expect(res.responseStatus).toBeNull();
    expect(res.error).toMatch(/ECONNREFUSED/);
  });
});
