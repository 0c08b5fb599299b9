import http from "node:http";
import type { AddressInfo } from "node:net";
import { Inngest } from "inngest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "@/lib/db";
import { startJobDriver, type TJobDriver } from "@/lib/jobs/driver";
import type { TRelayEvent } from "@/lib/jobs/relay";
import { enqueue } from "@/lib/outbox/enqueue";
import { waitFor } from "@/tests/support/webhook-receiver";

// Relay mode (an Inngest server configured): outbox rows are sent to the event API with the row id
// as event id, and marked dispatched only once the server accepted them.
let server: http.Server;
let baseUrl: string;
let failNext = 0;
const batches: Array<{
  key: string;
  events: Array<{ id: string; name: string; data: unknown; ts: number }>;
}> = [];
let driver: TJobDriver;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const events = JSON.parse(Buffer.concat(chunks).toString()) as (typeof batches)[number]["events"];
      if (failNext > 0) {
        failNext--;
        res
          .writeHead(500, { "content-type": "application/json" })
          .end(JSON.stringify({ status: 500, error: "down" }));
        return;
      }
      batches.push({ key: req.url ?? "", events });
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ status: 200, ids: events.map((e) => e.id) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = new Inngest({ id: "relay-test", eventKey: "test-event-key", baseUrl, isDev: false });
  driver = startJobDriver({
    mode: "relay",
    functions: [],
    serveUrl: "http://127.0.0.1:1/unused",
    signingKey: "signkey-test-unused",
    send: (events: TRelayEvent[]) => client.send(events),
    pollMs: 50,
  });
});

afterAll(async () => {
  await driver.stop();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("outbox relay", () => {
  it("sends outbox rows with their id as event id and marks them dispatched", async () => {
    const id = await prisma.$transaction((tx) =>
      enqueue(tx, { name: "test/relayed", data: { n: 1 }, clientId: null }),
    );
    const sent = await waitFor(
      () => batches.flatMap((b) => b.events).find((e) => e.id === id),
      10_000,
      "the event to be sent",
    );
    expect(sent).toMatchObject({ id, name: "test/relayed", data: { n: 1 }, ts: expect.any(Number) });
    expect(batches[0]!.key).toBe("/e/test-event-key");
    await waitFor(
      async () => (await prisma.outboxEvent.findUniqueOrThrow({ where: { id } })).dispatchedAt,
      10_000,
      "dispatchedAt",
    );
    expect(await prisma.jobRun.count()).toBe(0);
  });

  it("keeps rows the server refused and sends them again with the same id", async () => {
    failNext = 10; // more than the SDK's own retries of one send
    const id = await prisma.$transaction((tx) =>
      enqueue(tx, { name: "test/retried", data: {}, clientId: null }),
    );
    await waitFor(() => failNext === 0, 20_000, "the failures to be used up");
    const sent = await waitFor(
      () => batches.flatMap((b) => b.events).find((e) => e.id === id),
      20_000,
      "a resend",
    );
    expect(sent).toMatchObject({ id, name: "test/retried" });
    await waitFor(
      async () => (await prisma.outboxEvent.findUniqueOrThrow({ where: { id } })).dispatchedAt,
      10_000,
      "dispatchedAt",
    );
  });
});
