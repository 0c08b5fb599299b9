// POST /v1/user/onboard and POST /v1/merchantRequest on the raw-SQL path (lib/screening/screen-user.ts, screen-merchant.ts)
// against the Prisma path they replaced (screenUserPrisma, screenMerchantPrisma): two clients with the same
// rules, history and stored rows receive the same varied users and merchants, one through each path, and
// must end with the same answers, decisions (rules, outcomes, aggregate values) and stored rows.
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import * as merchantRoute from "@/app/v1/merchantRequest/route";
import * as onboardRoute from "@/app/v1/user/onboard/route";
import * as userRoute from "@/app/v1/user/route";
import { authenticateApiKey } from "@/lib/auth/api-keys";
import type { TClientContext } from "@/lib/clients/client-context";
import { prisma } from "@/lib/db";
import { importListEntries } from "@/lib/lists/import-list-entries";
import { ZMerchant } from "@/lib/merchants/schemas";
import { DEMO_RULES } from "@/lib/rules/demo-rules";
import { importRules } from "@/lib/rules/import-rules";
import { SANCTIONS_FIXTURES, SANCTIONS_RULES } from "@/lib/sanctions/demo-sanctions";
import { importSanctions } from "@/lib/sanctions/import-sanctions";
import {
  saveUserPrisma,
  screenMerchantPrisma,
  screenUserPrisma,
} from "@/tests/oracle/party-screening-oracle";
import { ZUser } from "@/lib/users/schemas";
import { call, createTestClient } from "@/tests/factories";

const HOUR = 3_600_000;
const T0 = Date.now() - 48 * HOUR;

const rule = (r: Record<string, unknown> & { id: string }) => ({
  name: `Rule ${r.id}`,
  status: "active",
  riskLevel: "medium",
  recommendedAction: "REVIEW",
  reason: `reason ${r.id}`,
  ...r,
});

const RULES = [
  ...SANCTIONS_RULES.filter((r) => r.subject === "user"),
  ...DEMO_RULES.filter((r) => r.subject === "user" || r.subject === "merchant").map((r) => ({
    ...r,
    status: "active",
  })),
  // users: stored status and first-seen createdAt, history aggregates (SQL, JS fallback, a group
  // value read from the stored row), lists, dry-run and muted rules
  { id: "U-BLOCKED", subject: "user", condition: "user.status == 'blocked'", riskLevel: "very_high" },
  { id: "U-SEEN-BEFORE", subject: "user", condition: "user.createdAt < user.timestamp - 3600000" },
  {
    id: "U-VOLUME",
    subject: "user",
    condition: "aggregates.volume30d > 20000 && aggregates.longIds >= 1",
    aggregates: {
      volume30d: { function: "sum", over: "transaction", groupBy: "userId", window: "30d", field: "amount" },
      longIds: {
        function: "count",
        over: "transaction",
        groupBy: "userId",
        window: "30d",
        where: "size(transaction.id) > 7",
      },
    },
  },
  {
    id: "U-STATUS-GROUP",
    subject: "user",
    condition: "aggregates.sameStatus > 10",
    aggregates: { sameStatus: { function: "count", over: "transaction", groupBy: "status", window: "30d" } },
  },
  {
    id: "U-LIST-IP",
    subject: "user",
    condition: 'inList("eq_ips", user.?userDevice.?ipAddress.orValue(""))',
  },
  { id: "U-DRY-RUN", subject: "user", status: "dry-run", condition: "has(user.email)" },
  { id: "U-MUTED", subject: "user", status: "muted", condition: "has(user.phone)" },
  // merchants: stored status, first timestamp kept, history aggregates, a group value from the stored row
  { id: "M-BLOCKED", subject: "merchant", condition: "merchant.status == 'blocked'", riskLevel: "high" },
  { id: "M-OLD", subject: "merchant", condition: `merchant.timestamp < ${T0}` },
  { id: "M-RISKY-NAME", subject: "merchant", condition: "merchant.name.startsWith('Risky')" },
  {
    id: "M-VOLUME",
    subject: "merchant",
    condition: "aggregates.count7d >= 20 && aggregates.max7d != null && aggregates.max7d > 9000",
    aggregates: {
      count7d: { function: "count", over: "transaction", groupBy: "merchantId", window: "7d" },
      max7d: { function: "max", over: "transaction", groupBy: "merchantId", window: "7d", field: "amount" },
    },
  },
  {
    id: "M-STATUS-GROUP",
    subject: "merchant",
    condition: "aggregates.sameStatus > 10",
    aggregates: { sameStatus: { function: "count", over: "transaction", groupBy: "status", window: "30d" } },
  },
  { id: "M-DRY-RUN", subject: "merchant", status: "dry-run", condition: "has(merchant.organizationId)" },
].map(rule);

const USERS: Record<string, unknown>[] = [
  {
    id: "u0",
    firstName: "Ann",
    address: { postalCode: "1", country: "IR" },
    email: { email: "Ann@Example.com" },
    phone: { phone: "+1 555 0100" },
    userDevice: { id: "dev-0", ipAddress: "192.168.0.5", fingerprint: "dfp-0" },
    timestamp: T0,
  },
  { id: "u1", firstName: "Bob", status: "blocked", timestamp: T0 + HOUR },
  // an update: new email, same phone, no status (kept)
  {
    id: "u0",
    firstName: "Ann",
    address: { postalCode: "1", country: "DE" },
    email: { email: "ann@new.example" },
    phone: { phone: "+1-555-0100" },
    timestamp: T0 + 2 * HOUR,
  },
  { id: "u1", firstName: "Bob", status: "APPROVED", timestamp: T0 + 3 * HOUR },
  // stored before (blocked, with an email link of another source): the same email again
  {
    id: "u2",
    lastName: "Stored",
    email: { email: "u2@example.com" },
    phone: { phone: "+44 1" },
    timestamp: T0 + 4 * HOUR,
  },
  { id: "u3", timestamp: T0 + 5 * HOUR },
  // an identical resend
  {
    id: "u0",
    firstName: "Ann",
    address: { postalCode: "1", country: "DE" },
    email: { email: "ann@new.example" },
    phone: { phone: "+1-555-0100" },
    timestamp: T0 + 2 * HOUR,
  },
  { id: "u2", lastName: "Stored", status: "declined", phone: { phone: "+44 1" }, timestamp: T0 + 6 * HOUR },
  // a device seen for u0 moves to u4
  {
    id: "u4",
    email: { email: "  " },
    userDevice: { id: "dev-0", ipAddress: "10.1.1.1", userAgent: "x" },
    timestamp: T0 + 7 * HOUR,
  },
  { id: "u5", firstName: "Eve", status: "inactive", timestamp: T0 + 8 * HOUR },
  // a sanctions match, and the same name for a user with that entity marked as a false match
  {
    id: "u6",
    firstName: "Wiktor",
    lastName: "Morozenko",
    dateOfBirth: "1968-04-12",
    timestamp: T0 + 9 * HOUR,
  },
  {
    id: "u7",
    firstName: "Wiktor",
    lastName: "Morozenko",
    dateOfBirth: "1968-04-12",
    timestamp: T0 + 9 * HOUR,
  },
];

// POST /v1/user (no screening) after the screenings above
const SAVED_USERS: Record<string, unknown>[] = [
  {
    id: "u0",
    firstName: "Ann",
    status: "blocked",
    email: { email: "ann@new.example" },
    timestamp: T0 + 10 * HOUR,
  },
  {
    id: "u8",
    phone: { phone: "+1 555 0199" },
    userDevice: { id: "dev-8", fingerprint: "dfp-8" },
    timestamp: T0,
  },
  { id: "u2", lastName: "Stored", phone: { phone: "+44 1" }, timestamp: T0 + 11 * HOUR },
  { id: "u8", phone: { phone: "+1 555 0199" }, status: "active", timestamp: T0 + HOUR },
];

const MERCHANTS: Record<string, unknown>[] = [
  { id: "m0", name: "Shop", timestamp: T0, status: "active" },
  { id: "m0", name: "Shop", timestamp: T0, status: "active" },
  { id: "m0", name: "Shop Ltd", timestamp: T0 + HOUR, status: "active", mcc: "5411" },
  { id: "m1", name: "Blocked Co", timestamp: T0 + 2 * HOUR, status: "blocked", organizationId: "org-1" },
  { id: "m1", name: "Blocked Co", timestamp: T0 + 3 * HOUR, status: "active", organizationId: "org-1" },
  { id: "m2", name: "Risky Trades", timestamp: T0 - 5 * HOUR },
  // a later timestamp only: the stored record keeps the first, so nothing changed
  { id: "m2", name: "Risky Trades", timestamp: T0 + 4 * HOUR },
  { id: "m3", name: "Quiet", timestamp: T0 + 5 * HOUR, country: "KE" },
];

type TSide = { clientId: string; apiKey: string; context: TClientContext };

async function side(name: string, rules = RULES): Promise<TSide> {
  const { clientId, apiKey } = await createTestClient({
    name,
    type: "business",
    features: ["merchantRiskAssessment"],
  });
  await importListEntries({
    clientId,
    name: "eq_ips",
    kind: "ip",
    entries: [{ value: "192.168.0.0/28", key: "192.168.0.0/28", note: null, expiresAt: null }],
    replace: false,
    actor: "cli",
    source: "test",
  });
  await importRules({ clientId, rules });
  await prisma.webhookSubscription.create({
    data: {
      clientId,
      url: "http://127.0.0.1:9/hook",
      events: ["user.screened", "merchant.screened"],
      secretEncrypted: "unused-in-this-test",
    },
  });
  // the same history and stored rows for both
  await prisma.$executeRawUnsafe(`
    INSERT INTO transactions ("clientId", id, "userId", "merchantId", status, "currencyCode", amount, "occurredAt",
      data, "bodyHash", "riskLevel", "recommendedAction", "assessedAt")
    SELECT '${clientId}', CASE WHEN g % 3 = 0 THEN 'hist-long-' ELSE 'h-' END || g, 'u' || (g % 4), 'm' || (g % 3),
      CASE WHEN g % 5 = 0 THEN 'active' ELSE 'APPROVED' END, 'USD', (g * 37 % 12000),
      to_timestamp(${T0 / 1000} - g * 900), jsonb_build_object('id', 'h-' || g, 'amount', g * 37 % 12000),
      md5(g::text), 'low', 'ALLOW', now()
    FROM generate_series(1, 300) g`);
  await prisma.user.create({
    data: {
      clientId,
      id: "u2",
      status: "blocked",
      statusReason: "manual",
      createdAt: new Date(T0 - 24 * HOUR),
    },
  });
  await prisma.userIdentifier.create({
    data: { clientId, kind: "email", value: "u2@example.com", userId: "u2", source: "transaction" },
  });
  await prisma.userIdentifier.create({
    data: { clientId, kind: "email", value: "old@example.com", userId: "u2", source: "transaction" },
  });
  await prisma.userIdentifier.create({
    data: { clientId, kind: "phone", value: "+441", userId: "u2", source: "transaction" },
  });
  await prisma.sanctionsFalseMatch.create({
    data: {
      clientId,
      userId: "u7",
      datasetId: "opensanctions",
      entityId: "NK-demo-morozenko",
      entityName: "Viktor Aleksandrovich Morozenko",
      screenedName: "Wiktor Morozenko",
      createdById: "test",
    },
  });
  return { clientId, apiKey, context: (await authenticateApiKey(apiKey))! };
}

async function snapshot(clientId: string) {
  const decisions = await prisma.decision.findMany({ where: { clientId }, orderBy: { createdAt: "asc" } });
  const normalized = decisions.map((d) => {
    const evaluated = d.evaluated as Array<{
      versionId: string;
      ruleId: string;
      status: string;
      triggered: boolean;
      error?: string;
      sanctions?: unknown;
    }>;
    const names = new Map(evaluated.map((e) => [e.versionId, e.ruleId]));
    const input = d.input as Record<string, unknown>;
    return {
      subjectType: d.subjectType,
      subjectId: d.subjectId,
      riskLevel: d.riskLevel,
      recommendedAction: d.recommendedAction,
      response: d.response,
      evaluated: evaluated.map((e) => [
        e.ruleId,
        e.status,
        e.triggered,
        e.error ?? null,
        e.sanctions ?? null,
      ]),
      aggregates: Object.fromEntries(
        Object.entries(d.aggregates as Record<string, unknown>).map(([v, values]) => [names.get(v), values]),
      ),
      input: { ...input, aggregates: undefined },
    };
  });
  const rows = async (sql: string) =>
    (await prisma.$queryRawUnsafe<Record<string, unknown>[]>(sql, clientId)).map((r) => JSON.stringify(r));
  return {
    decisions: normalized,
    users: await rows(
      `SELECT u.id, "firstName", "lastName", email, phone, data, status, "statusReason", u."createdAt",
         u."riskLevel", u."recommendedAction", ("assessedAt" IS NOT NULL) AS assessed,
         d."subjectId" = u.id AS "ownDecision"
       FROM users u LEFT JOIN decisions d ON d.id = u."decisionId" WHERE u."clientId" = $1 ORDER BY u.id`,
    ),
    statusChanges: await rows(
      `SELECT "userId", "fromStatus", "toStatus", source, details FROM user_status_changes WHERE "clientId" = $1
       ORDER BY "userId", "createdAt", "toStatus"`,
    ),
    identifiers: await rows(
      `SELECT kind, value, "userId", source FROM user_identifiers WHERE "clientId" = $1 ORDER BY kind, value, "userId"`,
    ),
    devices: await rows(
      `SELECT id, "userId", fingerprint, "ipAddress", data FROM devices WHERE "clientId" = $1 ORDER BY id`,
    ),
    merchants: await rows(
      `SELECT m.id, name, status, "organizationId", data, m."createdAt", m."riskLevel", m."recommendedAction",
         ("assessedAt" IS NOT NULL) AS assessed, d."subjectId" = m.id AS "ownDecision"
       FROM merchants m LEFT JOIN decisions d ON d.id = m."decisionId" WHERE m."clientId" = $1 ORDER BY m.id`,
    ),
    merchantVersions: await rows(
      `SELECT "merchantId", data FROM merchant_versions WHERE "clientId" = $1 ORDER BY "merchantId", data::text`,
    ),
    deliveries: await rows(
      `SELECT "eventType", (body::jsonb #- '{payload,timestamp}') - 'timestamp' AS body, status
       FROM webhook_deliveries WHERE "clientId" = $1 ORDER BY "eventType", body`,
    ),
    outbox: await rows(
      `SELECT name, count(*)::int AS n FROM outbox_events WHERE "clientId" = $1 GROUP BY name ORDER BY name`,
    ),
  };
}

const strip = (a: { timestamp: number }) => ({ ...a, timestamp: 0 });

/** Both paths receive every body; then answers, decisions and stored rows must be the same. */
async function compare(prismaSide: TSide, hotSide: TSide, rules: typeof RULES) {
  for (const body of USERS) {
    const expected = await screenUserPrisma({ client: prismaSide.context, body: ZUser.parse(body) });
    const res = await call(onboardRoute.POST, { apiKey: hotSide.apiKey, body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(strip(res.body)).toEqual(strip(expected));
  }
  for (const body of SAVED_USERS) {
    const expected = await saveUserPrisma({ clientId: prismaSide.clientId, user: ZUser.parse(body) });
    const res = await call(userRoute.POST, { apiKey: hotSide.apiKey, body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ id: expected.id, status: "success" });
  }
  for (const body of MERCHANTS) {
    const expected = await screenMerchantPrisma({
      client: prismaSide.context,
      body: ZMerchant.parse(body),
    });
    const res = await call(merchantRoute.POST, { apiKey: hotSide.apiKey, body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(strip(res.body)).toEqual(strip(expected));
  }

  const [a, b] = [await snapshot(prismaSide.clientId), await snapshot(hotSide.clientId)];
  // the set is varied enough to mean something
  const fired = new Set(a.decisions.flatMap((d) => d.evaluated.filter((e) => e[2]).map((e) => e[0])));
  for (const id of [
    "SANCTIONS-USER",
    "USER-RISKY-COUNTRY",
    "U-BLOCKED",
    "U-SEEN-BEFORE",
    "U-VOLUME",
    "U-STATUS-GROUP",
    "U-LIST-IP",
    "U-DRY-RUN",
    "U-MUTED",
    "M-BLOCKED",
    "M-OLD",
    "M-RISKY-NAME",
    "M-VOLUME",
    "M-STATUS-GROUP",
    "M-DRY-RUN",
  ].filter((id) => rules.some((r) => r.id === id)))
    expect(fired, id).toContain(id);
  expect(new Set(a.decisions.map((d) => d.riskLevel)).size).toBeGreaterThanOrEqual(3);
  expect(a.merchantVersions.length).toBe(2);
  expect(a.statusChanges.length).toBeGreaterThanOrEqual(7);
  expect(a.deliveries.length).toBe(USERS.length + MERCHANTS.length);
  const sanctioned = (id: string) =>
    a.decisions.find((d) => d.subjectId === id)!.evaluated.find((e) => e[0] === "SANCTIONS-USER")![2];
  expect([sanctioned("u6"), sanctioned("u7")]).toEqual([true, false]);

  expect(b.decisions).toEqual(a.decisions);
  for (const key of Object.keys(a) as Array<keyof typeof a>) expect(b[key], key).toEqual(a[key]);
}

describe("user and merchant screenings on the raw-SQL path", () => {
  let hotSide: TSide;

  beforeAll(async () => {
    await importSanctions({ file: path.join(SANCTIONS_FIXTURES, "targets.simple.csv") });
    hotSide = await side("Raw-SQL path");
  });

  // a groupBy on a field the stored row provides (status) makes the read two statements: both variants
  for (const [variant, rules] of [
    [
      "stored row and aggregates in one statement",
      RULES.filter((r) => !String(r.id).endsWith("STATUS-GROUP")),
    ],
    ["stored row read first (a group value from it)", RULES],
  ] as const)
    it(`answer and store exactly what the Prisma path does, for a varied set of users and merchants (${variant})`, async () => {
      const [a, b] = [
        await side(`Prisma path, ${variant}`, rules),
        await side(`Raw-SQL path, ${variant}`, rules),
      ];
      await compare(a, b, rules);
    });

  it("invalid bodies get the same error body from both routes as before", async () => {
    const res = await call(onboardRoute.POST, {
      apiKey: hotSide.apiKey,
      body: { id: "bad", timestamp: "x" },
    });
    expect(res.status).toBe(400);
    const merchant = await call(merchantRoute.POST, {
      apiKey: hotSide.apiKey,
      body: { id: "bad", name: "", timestamp: T0, cashbackRate: 3 },
    });
    expect(merchant.status).toBe(400);
    const consumer = await createTestClient({ type: "consumer" });
    const refused = await call(merchantRoute.POST, {
      apiKey: consumer.apiKey,
      body: { id: "m", name: "M", timestamp: T0 },
    });
    expect(refused.status).toBe(403);
    expect(await prisma.decision.count({ where: { clientId: hotSide.clientId, subjectId: "bad" } })).toBe(0);
  });

  it("concurrent screenings of one new user or merchant each answer, store one row and a decision each", async () => {
    const n = 6;
    const users = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        call(onboardRoute.POST, {
          apiKey: hotSide.apiKey,
          body: { id: "race-u", firstName: `R${i}`, status: i % 2 ? "blocked" : "active", timestamp: T0 },
        }),
      ),
    );
    expect(users.map((r) => r.status)).toEqual(Array(n).fill(200));
    const merchants = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        call(merchantRoute.POST, {
          apiKey: hotSide.apiKey,
          body: { id: "race-m", name: `Shop ${i % 2}`, timestamp: T0 + i },
        }),
      ),
    );
    expect(merchants.map((r) => r.status)).toEqual(Array(n).fill(200));
    const clientId = hotSide.clientId;
    for (const [subjectType, subjectId] of [
      ["user", "race-u"],
      ["merchant", "race-m"],
    ])
      expect(await prisma.decision.count({ where: { clientId, subjectType, subjectId } })).toBe(n);
    expect(await prisma.user.count({ where: { clientId, id: "race-u" } })).toBe(1);
    expect(
      await prisma.webhookDelivery.count({ where: { clientId, body: { contains: '"id":"race-' } } }),
    ).toBe(2 * n);
    // every status change chains from the one before it, starting with the creation
    const changes = await prisma.userStatusChange.findMany({
      where: { clientId, userId: "race-u" },
      orderBy: { createdAt: "asc" },
    });
    expect(changes[0]).toMatchObject({ fromStatus: null, details: { created: true } });
    const user = await prisma.user.findUniqueOrThrow({ where: { clientId_id: { clientId, id: "race-u" } } });
    expect(changes.at(-1)!.toStatus).toBe(user.status);
    const merchant = await prisma.merchant.findUniqueOrThrow({
      where: { clientId_id: { clientId, id: "race-m" } },
    });
    // the first insert's timestamp, kept in the stored body too
    expect(merchant.createdAt.getTime() - T0).toBeLessThan(n);
    expect((merchant.data as { timestamp: number }).timestamp).toBe(merchant.createdAt.getTime());
  });
});
