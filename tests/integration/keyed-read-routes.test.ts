// The screening read of POST /v1/user/onboard, /v1/merchantRequest, /v1/event, /v1/transaction/update and
// PUT /v1/paymentInstrument travels with the API key read (withClientRead, lib/http/with-client.ts):
// a revoked key is still refused on the very next request, a body error is reported to a valid key
// only, and the read and write are for the client the key belongs to in that statement.
import { describe, expect, it } from "vitest";
import * as eventRoute from "@/app/v1/event/route";
import * as merchantRoute from "@/app/v1/merchantRequest/route";
import * as instrumentRoute from "@/app/v1/paymentInstrument/route";
import * as updateRoute from "@/app/v1/transaction/update/route";
import * as transactionRoute from "@/app/v1/transaction/route";
import * as onboardRoute from "@/app/v1/user/onboard/route";
import { revokeApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db";
import { importRules } from "@/lib/rules/import-rules";
import { call, createTestClient } from "@/tests/factories";

const ago = () => Date.now() - 60_000;
let n = 0;
const id = (prefix: string) => `${prefix}-${n++}`;

type TRoute = {
  name: string;
  handler: typeof onboardRoute.POST;
  method: "POST" | "PUT";
  body: () => Record<string, unknown>;
  invalid: () => Record<string, unknown>;
};

const ROUTES: TRoute[] = [
  {
    name: "user/onboard",
    handler: onboardRoute.POST,
    method: "POST",
    body: () => ({ id: id("u"), firstName: "A", timestamp: ago() }),
    invalid: () => ({ id: id("u"), timestamp: "yesterday" }),
  },
  {
    name: "merchantRequest",
    handler: merchantRoute.POST,
    method: "POST",
    body: () => ({ id: id("m"), name: "M", timestamp: ago() }),
    invalid: () => ({ id: id("m"), name: "M", timestamp: "yesterday" }),
  },
  {
    name: "paymentInstrument",
    handler: instrumentRoute.PUT,
    method: "PUT",
    body: () => ({
      status: "linked",
      paymentInstrument: { id: id("pi"), userId: "ku", card: { fingerprint: "f" } },
    }),
    invalid: () => ({ status: "maybe", paymentInstrument: { id: id("pi"), userId: "ku" } }),
  },
  {
    name: "event",
    handler: eventRoute.POST,
    method: "POST",
    body: () => ({ id: id("ev"), type: "login", userId: "ku" }),
    invalid: () => ({ id: id("ev"), type: 42 }),
  },
  {
    name: "transaction/update",
    handler: updateRoute.POST,
    method: "POST",
    body: () => ({ transactionId: "kt", status: "APPROVED" }),
    invalid: () => ({ transactionId: "kt", status: "NOT-A-STATUS" }),
  },
];

async function keyedClient(name: string) {
  const created = await createTestClient({
    name,
    type: "business",
    features: [
      "merchantRiskAssessment",
      "paymentInstrumentRules",
      "eventRules",
      "transactionUpdateMonitoring",
    ],
  });
  await importRules({
    clientId: created.clientId,
    rules: (["user", "merchant", "paymentInstrument", "event", "transaction"] as const).map((subject) => ({
      id: `K-${subject}`,
      name: `K ${subject}`,
      subject,
      status: "active",
      riskLevel: "high",
      recommendedAction: "REVIEW",
      reason: "history",
      condition: "aggregates.n >= 1",
      aggregates: { n: { function: "count", over: "transaction", groupBy: "userId", window: "24h" } },
    })),
  });
  const tx = await call(transactionRoute.POST, {
    apiKey: created.apiKey,
    body: {
      id: "kt",
      userId: "ku",
      status: "PENDING",
      currencyCode: "USD",
      amount: 10,
      timestamp: Date.now() - 1000,
    },
  });
  expect(tx.status).toBe(200);
  return created;
}

describe("the screening read travels with the API key read on every screening route", () => {
  it.each(ROUTES)(
    "$name: a revoked key is refused on the very next request; body errors go to a valid key only",
    async (route) => {
      const { apiKey } = await keyedClient(`Keyed ${route.name}`);
      const send = (body: Record<string, unknown>, key: string | undefined = apiKey) =>
        call(route.handler, { apiKey: key, method: route.method, body });
      // the second request already reads with the key
      for (let i = 0; i < 2; i++) {
        const ok = await send(route.body());
        expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      }
      const invalid = await send(route.invalid());
      expect([invalid.status, invalid.body.error.type]).toEqual([400, "VALIDATION_ERROR"]);
      await revokeApiKey({ apiKey });
      for (const body of [route.body(), route.invalid()]) {
        const refused = await send(body);
        expect([refused.status, refused.body.error.type]).toEqual([401, "UNAUTHORIZED"]);
      }
      expect((await send(route.invalid(), undefined)).status).toBe(401);
    },
  );

  it("reads and writes for the client the key belongs to in that statement, not the one it was planned for", async () => {
    const a = await keyedClient("Keyed moved from");
    const b = await createTestClient({ name: "Keyed moved to", type: "business", features: ["eventRules"] });
    await importRules({
      clientId: b.clientId,
      rules: [
        {
          id: "B-USER",
          name: "B user",
          subject: "user",
          status: "active",
          riskLevel: "high",
          recommendedAction: "BLOCK",
          reason: "b's rule",
          condition: "true",
        },
      ],
    });
    // the key reads with a's plan once, then moves to b (the guess is still a)
    expect(
      (await call(onboardRoute.POST, { apiKey: a.apiKey, body: { id: "mu", timestamp: ago() } })).status,
    ).toBe(200);
    await prisma.apiKey.updateMany({ where: { clientId: a.clientId }, data: { clientId: b.clientId } });
    const moved = await call(onboardRoute.POST, { apiKey: a.apiKey, body: { id: "mu2", timestamp: ago() } });
    expect(moved.status).toBe(200);
    expect(moved.body.triggered.map((t: { id: string }) => t.id)).toEqual(["B-USER"]);
    expect(await prisma.user.count({ where: { clientId: b.clientId, id: "mu2" } })).toBe(1);
    expect(await prisma.user.count({ where: { clientId: a.clientId, id: "mu2" } })).toBe(0);
    // a's transaction is not b's: the update answers 404 (b has no transactionUpdateMonitoring: key + write)
    const update = await call(updateRoute.POST, {
      apiKey: a.apiKey,
      body: { transactionId: "kt", status: "DECLINED" },
    });
    expect(update.status).toBe(404);
    expect(
      (
        await prisma.transaction.findUniqueOrThrow({
          where: { clientId_id: { clientId: a.clientId, id: "kt" } },
        })
      ).status,
    ).toBe("PENDING");
    // an event of b reads b's (empty) history of user ku, not a's
    const event = await call(eventRoute.POST, {
      apiKey: a.apiKey,
      body: { id: "me", type: "login", userId: "ku" },
    });
    expect(event.status).toBe(200);
    expect(await prisma.event.count({ where: { clientId: b.clientId, id: "me" } })).toBe(1);
  });

  it("the read that travelled with the key sees the history (an event counting transactions only)", async () => {
    const { apiKey } = await keyedClient("Keyed same decision");
    // keyedClient's transaction made the guess: each read below travels with the key and counts kt
    const user = await call(onboardRoute.POST, { apiKey, body: { id: "ku", timestamp: ago() } });
    const instrument = await call(instrumentRoute.PUT, {
      apiKey,
      method: "PUT",
      body: { status: "linked", paymentInstrument: { id: "kpi", userId: "ku", card: { fingerprint: "f" } } },
    });
    const event = await call(eventRoute.POST, { apiKey, body: { id: "kev", type: "login", userId: "ku" } });
    const update = await call(updateRoute.POST, {
      apiKey,
      body: { transactionId: "kt", status: "APPROVED" },
    });
    expect(user.status).toBe(200);
    for (const [res, rule] of [
      [instrument, "K-paymentInstrument"],
      [event, "K-event"],
      [update, "K-transaction"],
    ] as const) {
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.triggered.map((t: { id: string }) => t.id)).toEqual([rule]);
    }
    const decision = await prisma.decision.findFirstOrThrow({ where: { subjectId: "kev" } });
    expect(JSON.stringify(decision)).toContain('"n"');
  });
});
