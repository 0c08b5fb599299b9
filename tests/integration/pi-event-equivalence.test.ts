// PUT /v1/paymentInstrument and POST /v1/event on the raw-SQL path (lib/screening) against the Prisma
// paths they replaced (screenPaymentInstrumentPrisma, screenEventPrisma): clients with the same rules,
// users and history receive the same varied requests, one through each path, with and without the
// rules features, and must end with the same answers, rows, decisions and webhooks.
import { beforeAll, describe, expect, it } from "vitest";
import * as eventRoute from "@/app/v1/event/route";
import * as instrumentRoute from "@/app/v1/paymentInstrument/route";
import { authenticateApiKey } from "@/lib/auth/api-keys";
import type { TClientContext } from "@/lib/clients/client-context";
import { prisma } from "@/lib/db";
import { ZEvent } from "@/lib/events/schemas";
import { ZPaymentInstrumentRequest } from "@/lib/payment-instruments/schemas";
import { importRules } from "@/lib/rules/import-rules";
import { screenEventPrisma, screenPaymentInstrumentPrisma } from "@/tests/oracle/pi-event-update-oracle";
import type { TFeature } from "@/lib/clients/schemas";
import { decisionsOf, outcome, rowsOf, sideRowsOf, untimed } from "@/tests/equivalence";
import { call, createTestClient } from "@/tests/factories";

const HOUR = 3_600_000;
const T0 = Date.now() - 20 * HOUR;

const rule = (subject: string) => (r: Record<string, unknown>) => ({
  name: `Rule ${r.id as string}`,
  subject,
  status: "active",
  riskLevel: "medium",
  recommendedAction: "REVIEW",
  reason: `reason ${r.id as string}`,
  ...r,
});

const RULES = [
  ...[
    {
      id: "PI-CARD-TX",
      condition: "aggregates.cardTx >= 2",
      aggregates: {
        cardTx: { function: "count", over: "transaction", groupBy: "card.cardFingerprint", window: "30d" },
      },
    },
    {
      id: "PI-USER-SUM",
      condition: "aggregates.userSum > 5000",
      aggregates: {
        userSum: { function: "sum", over: "transaction", groupBy: "userId", window: "7d", field: "amount" },
      },
    },
    {
      id: "PI-USER-EVENTS",
      condition: "aggregates.events24h >= 3",
      aggregates: { events24h: { function: "count", over: "event", groupBy: "userId", window: "24h" } },
    },
    {
      id: "PI-BLOCKED-USER",
      condition: "user.?status.orValue('') == 'blocked'",
      riskLevel: "very_high",
      recommendedAction: "BLOCK",
    },
    { id: "PI-UNLINKED", condition: "paymentInstrument.status == 'unlinked'", riskLevel: "low" },
    { id: "PI-NO-USER", condition: "!has(user.createdAt)", riskLevel: "high" },
    { id: "PI-DRY", status: "dry-run", condition: "paymentInstrument.?method.orValue('') == 'wallet'" },
  ].map(rule("paymentInstrument")),
  ...[
    { id: "EV-LOGIN", condition: "event.type == 'login'", riskLevel: "low" },
    {
      // the screened event counts itself
      id: "EV-BURST",
      condition: "aggregates.burst >= 4",
      aggregates: { burst: { function: "count", over: "event", groupBy: "userId", window: "24h" } },
    },
    {
      id: "EV-TYPES",
      condition: "aggregates.types >= 3",
      aggregates: {
        types: { function: "countDistinct", over: "event", groupBy: "userId", window: "24h", field: "type" },
      },
    },
    {
      id: "EV-JS-WHERE",
      condition: "aggregates.longIds > 2",
      aggregates: {
        longIds: {
          function: "count",
          over: "event",
          groupBy: "merchantId",
          window: "30d",
          where: "size(event.id) > 5",
        },
      },
    },
    {
      id: "EV-TX-SUM",
      condition: "aggregates.txSum > 10000",
      aggregates: {
        txSum: { function: "sum", over: "transaction", groupBy: "userId", window: "7d", field: "amount" },
      },
    },
    { id: "EV-MERCHANT", condition: "merchant.?status.orValue('') == 'blocked'", riskLevel: "very_high" },
    { id: "EV-EVE", condition: "user.?firstName.orValue('') == 'Eve'", riskLevel: "high" },
    { id: "EV-MUTED", status: "muted", condition: "event.type == 'payout'" },
  ].map(rule("event")),
];

function instruments(): Record<string, unknown>[] {
  return [
    {
      status: "linked",
      paymentInstrument: { id: "pi-1", userId: "u0", card: { fingerprint: "fp-1", last4: "4242" } },
    },
    {
      status: "linked",
      timestamp: T0 + HOUR,
      updatedAt: T0 + 2 * HOUR,
      paymentInstrument: {
        id: "pi-2",
        userId: "u1",
        method: "wallet",
        wallet: { taxNumberId: "12.345.678/0001-90", phone: "+55 11 9999 0000" },
      },
    },
    // a stored instrument changes: wallet verification kept when the new body has none
    { status: "unlinked", paymentInstrument: { id: "pi-2", userId: "u1", card: { fingerprint: "fp-2" } } },
    {
      status: "linked",
      paymentInstrument: {
        id: "pi-3",
        userId: "u2",
        wallet: { taxNumberId: "999", phone: "+55 11 9999 0000" },
      },
    },
    {
      status: "linked",
      paymentInstrument: { id: "pi-4", userId: "nobody", bank: { accountNumber: "GB29 NWBK 6016" } },
    },
    { status: "linked", paymentInstrument: { id: "pi-5", userId: "u3", crypto: { address: "bc1-addr" } } },
    { status: "linked", paymentInstrument: { id: "pi-6", userId: "u0", card: { fingerprint: "fp-0" } } },
    { status: "linked", paymentInstrument: { id: "pi-6", userId: "u0", card: { fingerprint: "fp-0" } } },
    { status: "linked", paymentInstrument: { id: "pi-7", userId: "u1", wallet: { phone: "+1 555 0100" } } },
  ];
}

function events(): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < 14; i++) {
    const event: Record<string, unknown> = {
      id: `ev-${i}`,
      type: ["login", "PASSWORD_RESET", "payout", "email_change"][(i + Math.floor(i / 4)) % 4],
      timestamp: T0 + i * HOUR,
      ...(i % 3 === 0 ? { method: "SMS" } : {}),
    };
    if (i % 5 === 1)
      event.user = {
        id: `u${i % 4}`,
        firstName: i === 6 ? "Eve" : "Bob",
        email: { email: `u${i % 4}@Example.com` },
        timestamp: T0 - HOUR,
        ...(i === 11 ? { status: "blocked" } : {}),
        ...(i === 1 ? { userDevice: { id: "dev-1", ipAddress: "10.0.0.1", fingerprint: "dfp-1" } } : {}),
      };
    else if (i % 5 !== 3) event.userId = i === 12 ? "newcomer" : `u${i % 4}`;
    if (i % 4 === 2)
      event.merchant = {
        id: `m${i % 2}`,
        name: `Shop ${i}`,
        timestamp: T0,
        status: i === 6 ? "blocked" : "active",
      };
    else if (i % 5 === 3) event.merchantId = `m${i % 2}`;
    out.push(event);
  }
  // the same id again: stored anew, screened anew
  out.push({ ...out[2]!, type: "login" });
  // the inline user and merchant last sent, sent again unchanged; then both new, the user with a device
  out.push({
    id: "ev-14",
    type: "login",
    timestamp: T0 + 14 * HOUR,
    user: out[11]!.user,
    merchant: out[10]!.merchant,
  });
  out.push({
    id: "ev-15",
    type: "payout",
    timestamp: T0 + 15 * HOUR,
    user: {
      id: "u-new",
      firstName: "Eve",
      timestamp: T0,
      userDevice: { id: "dev-2", ipAddress: "10.0.0.2" },
    },
    merchant: { id: "m-new", name: "New shop", timestamp: T0 },
  });
  return out;
}

type TSide = { clientId: string; apiKey: string; context: TClientContext };

async function side(name: string, features: TFeature[]): Promise<TSide> {
  const { clientId, apiKey } = await createTestClient({ name, features });
  await importRules({ clientId, rules: RULES });
  await prisma.webhookSubscription.create({
    data: {
      clientId,
      url: "http://127.0.0.1:9/hook",
      events: ["payment_instrument.screened", "event.screened"],
      secretEncrypted: "unused-in-this-test",
    },
  });
  await prisma.user.createMany({
    data: [0, 1, 2, 3].map((i) => ({
      clientId,
      id: `u${i}`,
      firstName: "Stored",
      data: { id: `u${i}`, taxNumberId: "12345678000190", phone: { phone: "+5511 99990000" } },
      status: i === 3 ? "blocked" : "active",
      createdAt: new Date(T0 - 50 * HOUR),
    })),
  });
  await prisma.$executeRawUnsafe(`
    INSERT INTO transactions ("clientId", id, "userId", "cardFingerprint", status, "currencyCode", amount, "occurredAt",
      data, "bodyHash", "riskLevel", "recommendedAction", "assessedAt")
    SELECT '${clientId}', 'hist-' || g, 'u' || (g % 4), 'fp-' || (g % 3), 'APPROVED', 'USD', g * 97 % 4000,
      to_timestamp(${T0 / 1000} - g * 3600), jsonb_build_object('id', 'hist-' || g, 'amount', g * 97 % 4000,
        'card', jsonb_build_object('cardFingerprint', 'fp-' || (g % 3))),
      md5(g::text), 'low', 'ALLOW', now()
    FROM generate_series(1, 60) g`);
  await prisma.$executeRawUnsafe(`
    INSERT INTO events ("clientId", id, type, "userId", "merchantId", "occurredAt", data)
    SELECT '${clientId}', 'old-' || g, CASE WHEN g % 2 = 0 THEN 'login' ELSE 'payout' END, 'u' || (g % 4), 'm' || (g % 2),
      to_timestamp(${T0 / 1000} - g * 1200), jsonb_build_object('id', 'old-' || g)
    FROM generate_series(1, 30) g`);
  return { clientId, apiKey, context: (await authenticateApiKey(apiKey))! };
}

async function snapshot(clientId: string) {
  return {
    // an instrument sent without a timestamp is screened at the time of the request
    decisions: (await decisionsOf(clientId)).map((d) => ({
      ...d,
      timestamp: (d.timestamp as number) > Date.now() - HOUR ? "now" : d.timestamp,
    })),
    instruments: await rowsOf(
      clientId,
      `SELECT id, "userId", status, method, data, inferred, "riskLevel", "recommendedAction", "walletVerification",
         ("decisionId" IS NOT NULL) AS decided, "occurredAt", CASE WHEN "updatedAt" < now() - interval '1 hour'
         THEN "updatedAt" END AS "updatedAt"
       FROM payment_instruments WHERE "clientId" = $1 ORDER BY id`,
    ),
    events: await rowsOf(
      clientId,
      `SELECT id, type, method, "userId", "merchantId", "occurredAt", data, "riskLevel", "recommendedAction",
         ("assessedAt" IS NOT NULL) AS assessed, ("decisionId" IS NOT NULL) AS decided
       FROM events WHERE "clientId" = $1 AND id NOT LIKE 'old-%' ORDER BY id`,
    ),
    users: await rowsOf(
      clientId,
      `SELECT id, "firstName", "lastName", email, phone, data, status, "statusReason", "createdAt" FROM users
       WHERE "clientId" = $1 ORDER BY id`,
    ),
    statusChanges: await rowsOf(
      clientId,
      `SELECT "userId", "fromStatus", "toStatus", source, details FROM user_status_changes WHERE "clientId" = $1
       ORDER BY "userId", "createdAt", "toStatus"`,
    ),
    merchants: await rowsOf(
      clientId,
      `SELECT id, name, status, "organizationId", data, "createdAt" FROM merchants WHERE "clientId" = $1 ORDER BY id`,
    ),
    merchantVersions: await rowsOf(
      clientId,
      `SELECT "merchantId", data FROM merchant_versions WHERE "clientId" = $1 ORDER BY "merchantId", data::text`,
    ),
    devices: await rowsOf(
      clientId,
      `SELECT id, "userId", fingerprint, "ipAddress", data FROM devices WHERE "clientId" = $1 ORDER BY id`,
    ),
    ...(await sideRowsOf(clientId)),
  };
}

describe.each([
  ["with paymentInstrumentRules, walletVerification and eventRules", true],
  ["without the rules features", false],
])("payment-instrument and event screenings on the raw-SQL path, %s", (_label, rulesOn) => {
  let prismaSide: TSide;
  let hotSide: TSide;
  const features: TFeature[] = rulesOn ? ["paymentInstrumentRules", "walletVerification", "eventRules"] : [];

  beforeAll(async () => {
    prismaSide = await side(`Prisma ${rulesOn}`, features);
    hotSide = await side(`Raw ${rulesOn}`, features);
  });

  it("answers and stores exactly what the Prisma path does", async () => {
    for (const body of instruments()) {
      const expected = await outcome(() =>
        screenPaymentInstrumentPrisma({
          client: prismaSide.context,
          body: ZPaymentInstrumentRequest.parse(body),
        }),
      );
      const res = await call(instrumentRoute.PUT, { apiKey: hotSide.apiKey, method: "PUT", body });
      expect(untimed({ status: res.status, body: res.body }), JSON.stringify(body)).toEqual(
        untimed(expected),
      );
    }
    for (const body of events()) {
      const expected = await outcome(() =>
        screenEventPrisma({ client: prismaSide.context, body: ZEvent.parse(body) }),
      );
      const res = await call(eventRoute.POST, { apiKey: hotSide.apiKey, body });
      expect(untimed({ status: res.status, body: res.body }), JSON.stringify(body)).toEqual(
        untimed(expected),
      );
    }

    const [a, b] = [await snapshot(prismaSide.clientId), await snapshot(hotSide.clientId)];
    // the set means something
    expect(a.merchantVersions.length).toBeGreaterThan(0);
    expect(a.devices.length).toBe(2);
    expect(a.identifiers.some((i) => i.includes('"source":"paymentInstrument"'))).toBe(true);
    if (rulesOn) {
      const outcomes = new Set(a.decisions.map((d) => `${d.riskLevel}/${d.recommendedAction}`));
      expect(outcomes.size).toBeGreaterThanOrEqual(3);
      const fired = new Set(
        a.decisions.flatMap((d) => d.evaluated.filter(([, , hit]) => hit).map(([id]) => id)),
      );
      for (const id of [
        "PI-CARD-TX",
        "PI-USER-EVENTS",
        "PI-BLOCKED-USER",
        "PI-NO-USER",
        "EV-BURST",
        "EV-TYPES",
        "EV-EVE",
      ])
        expect(fired, id).toContain(id);
      expect(a.instruments.some((i) => i.includes('"status":"mismatch"'))).toBe(true);
      expect(a.instruments.some((i) => i.includes('"status":"verified"'))).toBe(true);
    } else {
      expect(a.decisions).toEqual([]);
    }
    expect(b.decisions).toEqual(a.decisions);
    for (const key of Object.keys(a) as Array<keyof typeof a>) expect(b[key], key).toEqual(a[key]);
  });
});
