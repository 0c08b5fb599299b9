import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Tenant isolation matrix: client A and client B each hold data of every kind; every /v1 route,
// dashboard API route and dashboard server action is called as B with A's ids. Always 404 (as for an
// unknown id), never A's data, A's rows untouched. Routes are found on disk: a new route with an id
// in its path fails this file until it is added to a matrix below.

const session = vi.hoisted(() => ({ current: null as null | { user: { id: string } } }));
vi.mock("next-auth", async (importOriginal) => ({
  ...(await importOriginal<typeof import("next-auth")>()),
  getServerSession: () => Promise.resolve(session.current),
}));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

const { prisma } = await import("@/lib/db");
const { FEATURES } = await import("@/lib/clients/schemas");
const { importRules } = await import("@/lib/rules/import-rules");
const { createDashboardUser } = await import("@/lib/dashboard-users/create-dashboard-user");
const { startBacktest } = await import("@/lib/backtest/run-backtest");
const { call, createTestClient } = await import("@/tests/factories");
const { countAllRows, discoverActions, discoverDashboardRoutes, discoverRoutes, expectContractError } =
  await import("@/tests/support/fuzz-routes");
type TRouteMethod = Awaited<ReturnType<typeof discoverRoutes>>[number];

type TRole = "admin" | "reviewer" | "reporting_officer";
type TTenant = {
  prefix: string;
  clientId: string;
  apiKey: string;
  ids: {
    user: string;
    blockedUser: string;
    device: string;
    merchant: string;
    transaction: string;
    instrument: string;
    event: string;
    comment: string;
    report: string;
    rule: string;
    backtest: string;
    alert: string;
    case: string;
    subscription: string;
    delivery: string;
    apiKey: string;
    email: string;
    list: string;
    listEntry: string;
  };
  dashboard: Record<TRole, string>;
};

let A: TTenant;
let B: TTenant;
const now = () => Date.now() - 1000;

async function v1(
  key: string,
  apiKey: string,
  opts: { params?: Record<string, string>; body?: unknown } = {},
) {
  const route = v1Routes.find((r) => r.key === key);
  if (!route) throw new Error(`no route ${key}`);
  return call(route.handler, { apiKey, method: route.method, ...opts });
}

async function seedTenant(prefix: string): Promise<TTenant> {
  const { clientId, apiKey } = await createTestClient({
    type: "business",
    features: [...FEATURES],
    name: prefix,
  });
  const p = prefix;
  await importRules({
    clientId,
    rules: [
      {
        id: `${p}-RULE`,
        name: `${p} large`,
        subject: "transaction",
        status: "active",
        riskLevel: "high",
        recommendedAction: "REVIEW",
        reason: `${p} reason`,
        condition: "transaction.amount > 100",
      },
    ],
  });
  const ok = async (res: Promise<{ status: number; body: any }>) => {
    const r = await res;
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  };
  const sub = await ok(
    v1("POST /v1/webhooks", apiKey, {
      body: {
        url: `http://127.0.0.1:9/${p}`,
        events: ["transaction.screened", "alert.created"],
        secret: `${p}-secret`,
      },
    }),
  );
  const user = `${p}-user`;
  const email = `${p}@example.com`;
  await ok(
    v1("POST /v1/user", apiKey, {
      body: { id: user, timestamp: now(), firstName: `${p}-Secret`, email: { email } },
    }),
  );
  await ok(
    v1("POST /v1/user", apiKey, { body: { id: `${p}-blocked`, timestamp: now(), status: "BLOCKED" } }),
  );
  await ok(
    v1("POST /v1/user/device", apiKey, {
      body: { userId: user, device: { id: `${p}-dev`, ipAddress: "192.0.2.9" } },
    }),
  );
  await ok(
    v1("POST /v1/merchantRequest", apiKey, {
      body: { id: `${p}-merchant`, name: `${p} shop`, timestamp: now() },
    }),
  );
  await ok(
    v1("POST /v1/transaction", apiKey, {
      body: {
        id: `${p}-tx`,
        userId: user,
        merchantId: `${p}-merchant`,
        status: "APPROVED",
        currencyCode: "USD",
        amount: 500,
        timestamp: now(),
      },
    }),
  );
  await ok(
    v1("PUT /v1/paymentInstrument", apiKey, {
      body: {
        status: "linked",
        paymentInstrument: { id: `${p}-pi`, userId: user, method: "card", card: { fingerprint: `${p}-fp` } },
      },
    }),
  );
  await ok(v1("POST /v1/event", apiKey, { body: { id: `${p}-ev`, type: "login", userId: user } }));
  const comment = await ok(
    v1("POST /v1/comments/user/{userId}", apiKey, {
      params: { userId: user },
      body: { userId: user, comment: `${p} comment`, commenterId: `${p}-rev` },
    }),
  );
  const report = await ok(
    v1("POST /v1/report", apiKey, {
      body: { reportType: "STR", id: `${p}-report`, userId: user, transactionIds: [`${p}-tx`] },
    }),
  );
  const alert = await prisma.alert.findFirstOrThrow({ where: { clientId } });
  const delivery = await prisma.webhookDelivery.findFirstOrThrow({ where: { clientId } });
  const key = await prisma.apiKey.findFirstOrThrow({ where: { clientId } });
  const list = await prisma.list.create({
    data: { clientId, name: `${p.toLowerCase()}-emails`, kind: "email", description: `${p} list` },
  });
  const listEntry = await prisma.listEntry.create({
    data: { clientId, listId: list.id, value: `${p}@lists.test`, key: `${p.toLowerCase()}@lists.test` },
  });
  const dashboard = {} as Record<TRole, string>;
  for (const role of ["admin", "reviewer", "reporting_officer"] as const)
    dashboard[role] = (
      await createDashboardUser({
        clientId,
        email: `${p}-${role}@example.test`,
        password: "correct horse battery",
        role,
        name: `${p} ${role}`,
      })
    ).userId;
  const backtest = await startBacktest(
    { id: dashboard.admin, clientId, email: `${p}-admin@example.test`, name: null, role: "admin" },
    { ruleId: `${p}-RULE`, from: Date.now() - 86_400_000, to: Date.now() },
  );
  return {
    prefix,
    clientId,
    apiKey,
    ids: {
      user,
      blockedUser: `${p}-blocked`,
      device: `${p}-dev`,
      merchant: `${p}-merchant`,
      transaction: `${p}-tx`,
      instrument: `${p}-pi`,
      event: `${p}-ev`,
      comment: String(comment.id),
      report: String(report.reportId),
      rule: `${p}-RULE`,
      backtest: backtest.id,
      alert: alert.id,
      case: alert.caseId!,
      subscription: String(sub.subscription.id),
      delivery: delivery.id,
      apiKey: key.id,
      email,
      list: list.id,
      listEntry: listEntry.id,
    },
    dashboard,
  };
}

/**
 * Rows of one client in every table that has a clientId column (a partitioned table once, not each of its
 * month partitions), in one statement.
 */
async function clientRowCounts(clientId: string): Promise<Record<string, number>> {
  const tables = await prisma.$queryRaw<{ name: string }[]>`
    SELECT c.relname AS name FROM pg_attribute a
    JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = current_schema() AND a.attname = 'clientId' AND NOT a.attisdropped
      AND c.relkind IN ('r', 'p') AND NOT c.relispartition
    ORDER BY 1`;
  const rows = await prisma.$queryRawUnsafe<{ counts: Record<string, number> }[]>(
    `SELECT json_object_agg(t.name, t.n ORDER BY t.name) AS counts FROM (${tables
      .map((t) => `SELECT '${t.name}' AS name, (SELECT count(*) FROM "${t.name}" WHERE "clientId" = $1) AS n`)
      .join(" UNION ALL ")}) t`,
    clientId,
  );
  return rows[0]!.counts;
}

/** The mutable state of A's records: statuses, assignments, revocations. */
async function stateOf(t: TTenant) {
  const clientId = t.clientId;
  return {
    users: await prisma.user.findMany({ where: { clientId }, orderBy: { id: "asc" } }),
    transactions: await prisma.transaction.findMany({ where: { clientId }, orderBy: { id: "asc" } }),
    alerts: await prisma.alert.findMany({ where: { clientId }, orderBy: { id: "asc" } }),
    cases: await prisma.case.findMany({ where: { clientId }, orderBy: { id: "asc" } }),
    caseEvents: await prisma.caseEvent.findMany({ where: { clientId }, orderBy: { id: "asc" } }),
    rules: await prisma.rule.findMany({ where: { clientId }, orderBy: { ruleId: "asc" } }),
    backtests: await prisma.backtestRun.findMany({ where: { clientId }, orderBy: { id: "asc" } }),
    reports: await prisma.report.findMany({ where: { clientId }, orderBy: { id: "asc" } }),
    subscriptions: await prisma.webhookSubscription.findMany({ where: { clientId }, orderBy: { id: "asc" } }),
    deliveries: await prisma.webhookDelivery.findMany({ where: { clientId }, orderBy: { id: "asc" } }),
    apiKeys: await prisma.apiKey.findMany({ where: { clientId }, orderBy: { id: "asc" } }),
    dashboardUsers: await prisma.dashboardUser.findMany({ where: { clientId }, orderBy: { id: "asc" } }),
    lists: await prisma.list.findMany({ where: { clientId }, orderBy: { id: "asc" } }),
    listEntries: await prisma.listEntry.findMany({ where: { clientId }, orderBy: { id: "asc" } }),
    counts: await clientRowCounts(clientId),
  };
}

/** Nothing of A in an answer to B: no A id, name, email or comment text (all carry A's prefix). */
function expectNothingOf(t: TTenant, body: unknown, context: string) {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  expect(text.includes(t.prefix), `${context} leaks ${t.prefix}: ${text.slice(0, 400)}`).toBe(false);
  for (const id of [
    t.ids.alert,
    t.ids.case,
    t.ids.delivery,
    t.ids.apiKey,
    t.ids.subscription,
    t.ids.comment,
    ...Object.values(t.dashboard),
  ])
    expect(text.includes(id), `${context} leaks ${id}`).toBe(false);
}

// ---- the /v1 matrix: every route with an id in its path, called by B with A's id ---------------------

type TV1Case = {
  params: (a: TTenant) => Record<string, string>;
  body?: (a: TTenant) => unknown;
  query?: Record<string, string>;
  status?: number;
};
const V1_MATRIX: Record<string, TV1Case[]> = {
  "GET /v1/cases/{caseId}": [{ params: (a) => ({ caseId: a.ids.case }) }],
  "GET /v1/comments/user/{userId}": [{ params: (a) => ({ userId: a.ids.user }) }],
  "POST /v1/comments/user/{userId}": [
    {
      params: (a) => ({ userId: a.ids.user }),
      body: (a) => ({ userId: a.ids.user, comment: "x", commenterId: "b" }),
    },
  ],
  "GET /v1/paymentInstrument/{id}": [{ params: (a) => ({ id: a.ids.instrument }) }],
  "GET /v1/reports/{reportId}": [
    { params: (a) => ({ reportId: a.ids.report }) },
    { params: (a) => ({ reportId: a.ids.report }), query: { include: "content,audit" } },
  ],
  "GET /v1/transaction/{id}": [{ params: (a) => ({ id: a.ids.transaction }) }],
  "PUT /v1/users/{userId}/block": [
    { params: (a) => ({ userId: a.ids.user }), body: () => ({ comment: "b", reviewer: "b" }) },
  ],
  "PUT /v1/users/{userId}/unblock": [
    { params: (a) => ({ userId: a.ids.blockedUser }), body: () => ({ comment: "b" }) },
  ],
  "PUT /v1/users/{userId}/status": [
    { params: (a) => ({ userId: a.ids.user }), body: () => ({ status: "inactive" }) },
    { params: (a) => ({ userId: a.ids.user }), body: () => ({}) },
  ],
  "GET /v1/users/{userId}": [{ params: (a) => ({ userId: a.ids.user }) }],
  "GET /v1/users/{userId}/links": [
    { params: (a) => ({ userId: a.ids.user }) },
    { params: (a) => ({ userId: a.ids.user }), query: { depth: "2" } },
  ],
  "GET /v1/users/transactions/{transactionId}": [{ params: (a) => ({ transactionId: a.ids.transaction }) }],
  "PUT /v1/users/transactions/{transactionId}/status": [
    {
      params: (a) => ({ transactionId: a.ids.transaction }),
      body: () => ({ status: "blocked", parties: "both" }),
    },
  ],
};

// Routes whose ids travel in the body: A's id is as unknown to B as any other.
type TBodyCase = {
  key: string;
  body: (a: TTenant) => unknown;
  expect: (res: { status: number; body: any }) => void;
};
const V1_BODY_CASES: TBodyCase[] = [
  {
    key: "POST /v1/transaction/update",
    body: (a) => ({ transactionId: a.ids.transaction, status: "DECLINED" }),
    expect: is404,
  },
  {
    key: "POST /v1/user/device",
    body: (a) => ({ userId: a.ids.user, device: { id: "b-dev" } }),
    expect: is404,
  },
  {
    key: "POST /v1/user/feedback",
    body: (a) => ({
      userId: a.ids.user,
      onboardingFeedback: { status: "DECLINED", description: "b", createdAt: now() },
    }),
    expect: is404,
  },
  { key: "POST /v1/report", body: (a) => ({ reportType: "STR", userId: a.ids.user }), expect: is404 },
  {
    key: "POST /v1/report",
    body: (a) => ({ reportType: "STR", userId: "b-none", transactionIds: [a.ids.transaction] }),
    expect: is404,
  },
  {
    key: "POST /v1/report",
    body: (a) => ({ reportType: "SAR", merchantId: a.ids.merchant, userId: "nobody" }),
    expect: is404,
  },
  {
    key: "POST /v1/reports/bulk",
    body: (a) => ({ reports: [{ reportType: "STR", userId: a.ids.user }] }),
    expect: (res) => {
      expect(res.status).toBe(200);
      expect(res.body.summary).toEqual({ received: 1, created: 0, failed: 1 });
      expect(res.body.failed[0].error.type).toBe("NOT_FOUND");
    },
  },
  {
    key: "PUT /v1/users/attributes/status",
    body: (a) => ({ attribute: "email", value: a.ids.email, status: "BLOCKED" }),
    expect: (res) => expect(res.body).toEqual({ status: "success", matchedUsers: 0 }),
  },
];

function is404(res: { status: number; body: any }) {
  expect(res.status, JSON.stringify(res.body)).toBe(404);
  expect(res.body.error.type).toBe("NOT_FOUND");
}

// ---- dashboard API routes and server actions --------------------------------------------------------

type TDashCase = {
  role: TRole;
  params: (a: TTenant) => Record<string, string>;
  body?: (a: TTenant) => unknown;
  query?: (a: TTenant) => Record<string, string>;
};
const DASHBOARD_MATRIX: Record<string, TDashCase[]> = {
  "GET /dashboard-api/alerts/{alertId}": [{ role: "reviewer", params: (a) => ({ alertId: a.ids.alert }) }],
  "POST /dashboard-api/alerts/{alertId}/assign": [
    { role: "reviewer", params: (a) => ({ alertId: a.ids.alert }), body: () => ({ assign: true }) },
  ],
  "POST /dashboard-api/alerts/{alertId}/review": [
    {
      role: "reviewer",
      params: (a) => ({ alertId: a.ids.alert }),
      body: () => ({ status: "confirmed", feedback: "b" }),
    },
  ],
  "GET /dashboard-api/cases/{caseId}": [
    { role: "reviewer", params: (a) => ({ caseId: a.ids.case }) },
    { role: "reporting_officer", params: (a) => ({ caseId: a.ids.case }) },
  ],
  "POST /dashboard-api/cases/{caseId}/assign": [
    { role: "reviewer", params: (a) => ({ caseId: a.ids.case }), body: () => ({ assigneeId: null }) },
  ],
  "POST /dashboard-api/cases/{caseId}/comment": [
    { role: "reviewer", params: (a) => ({ caseId: a.ids.case }), body: () => ({ comment: "b" }) },
  ],
  "POST /dashboard-api/cases/{caseId}/alerts": [
    {
      role: "reviewer",
      params: (a) => ({ caseId: a.ids.case }),
      body: () => ({ status: "cleared", note: "b" }),
    },
  ],
  "POST /dashboard-api/cases/{caseId}/close": [
    {
      role: "reviewer",
      params: (a) => ({ caseId: a.ids.case }),
      body: () => ({ outcome: "false_positive", note: "b" }),
    },
  ],
  "POST /dashboard-api/cases/{caseId}/escalate": [
    { role: "reviewer", params: (a) => ({ caseId: a.ids.case }), body: () => ({ note: "b" }) },
  ],
  "POST /dashboard-api/cases/{caseId}/block-user": [
    { role: "reviewer", params: (a) => ({ caseId: a.ids.case }), body: () => ({ note: "b" }) },
  ],
  "POST /dashboard-api/api-keys/{keyId}/revoke": [
    { role: "admin", params: (a) => ({ keyId: a.ids.apiKey }) },
  ],
  "GET /dashboard-api/lists/{listId}/entries": [{ role: "admin", params: (a) => ({ listId: a.ids.list }) }],
  "POST /dashboard-api/lists/{listId}/entries": [
    { role: "admin", params: (a) => ({ listId: a.ids.list }), body: () => ({ value: "b@lists.test" }) },
  ],
  "DELETE /dashboard-api/lists/{listId}/entries/{entryId}": [
    { role: "admin", params: (a) => ({ listId: a.ids.list, entryId: a.ids.listEntry }) },
  ],
  "POST /dashboard-api/lists/{listId}/upload": [
    {
      role: "admin",
      params: (a) => ({ listId: a.ids.list }),
      body: () => ({ csv: "value\nb@lists.test\n" }),
    },
  ],
  "GET /dashboard-api/lists/{listId}/download": [{ role: "admin", params: (a) => ({ listId: a.ids.list }) }],
  "GET /dashboard-api/rules/{ruleId}": [{ role: "admin", params: (a) => ({ ruleId: a.ids.rule }) }],
  "PUT /dashboard-api/rules/{ruleId}": [
    {
      role: "admin",
      params: (a) => ({ ruleId: a.ids.rule }),
      body: (a) => ({
        definition: {
          id: a.ids.rule,
          name: "b",
          subject: "transaction",
          status: "inactive",
          riskLevel: "low",
          recommendedAction: "ALLOW",
          reason: "b",
          condition: "true",
        },
      }),
    },
  ],
  "POST /dashboard-api/rules/{ruleId}/publish": [
    {
      role: "admin",
      params: (a) => ({ ruleId: a.ids.rule }),
      body: () => ({ version: 1, status: "dry-run", note: "b" }),
    },
  ],
  "POST /dashboard-api/backtests/{runId}": [
    { role: "admin", params: (a) => ({ runId: a.ids.backtest }), body: () => ({}) },
  ],
  "GET /dashboard-api/rules/{ruleId}/backtest": [
    { role: "reporting_officer", params: (a) => ({ ruleId: a.ids.rule }) },
  ],
  "POST /dashboard-api/rules/{ruleId}/status": [
    { role: "admin", params: (a) => ({ ruleId: a.ids.rule }), body: () => ({ status: "archived" }) },
  ],
  "POST /dashboard-api/team/{userId}/disable": [
    { role: "admin", params: (a) => ({ userId: a.dashboard.reviewer }) },
  ],
  "POST /dashboard-api/team/{userId}/enable": [
    { role: "admin", params: (a) => ({ userId: a.dashboard.reviewer }) },
  ],
  "POST /dashboard-api/team/{userId}/unlock": [
    { role: "admin", params: (a) => ({ userId: a.dashboard.reviewer }) },
  ],
  "POST /dashboard-api/team/{userId}/role": [
    { role: "admin", params: (a) => ({ userId: a.dashboard.reviewer }), body: () => ({ role: "admin" }) },
  ],
  "POST /dashboard-api/team/{userId}/reset-password": [
    { role: "admin", params: (a) => ({ userId: a.dashboard.reviewer }) },
  ],
  "POST /dashboard-api/transactions/{transactionId}/confirm": [
    {
      role: "reviewer",
      params: (a) => ({ transactionId: a.ids.transaction }),
      body: () => ({ kind: "fraud", feedback: "b" }),
    },
  ],
  "POST /dashboard-api/users/{userId}/comments": [
    {
      role: "reviewer",
      params: (a) => ({ userId: a.ids.user }),
      body: (a) => ({ comment: "b", transactionId: a.ids.transaction }),
    },
  ],
  "POST /dashboard-api/users/{userId}/sanctions-false-matches": [
    {
      role: "reviewer",
      params: (a) => ({ userId: a.ids.user }),
      body: () => ({ datasetId: "opensanctions", entityId: "any", screenedName: "b", note: "b" }),
    },
  ],
  "DELETE /dashboard-api/users/{userId}/sanctions-false-matches": [
    {
      role: "reviewer",
      params: (a) => ({ userId: a.ids.user }),
      query: () => ({ datasetId: "opensanctions", entityId: "any" }),
    },
  ],
  "GET /dashboard-api/users/{userId}/network": [
    { role: "reviewer", params: (a) => ({ userId: a.ids.user }) },
    {
      role: "reporting_officer",
      params: (a) => ({ userId: a.ids.blockedUser }),
      query: () => ({ depth: "2" }),
    },
  ],
  "POST /dashboard-api/users/{userId}/network/status": [
    {
      role: "reviewer",
      params: (a) => ({ userId: a.ids.user }),
      body: (a) => ({ userIds: [a.ids.user], status: "blocked", note: "b" }),
    },
  ],
  "POST /dashboard-api/cases/{caseId}/merge": [
    {
      role: "reviewer",
      params: (a) => ({ caseId: a.ids.case }),
      body: () => ({ caseIds: ["b-case"], note: "b" }),
    },
  ],
  "POST /dashboard-api/users/{userId}/status": [
    {
      role: "reviewer",
      params: (a) => ({ userId: a.ids.user }),
      body: () => ({ status: "blocked", comment: "b" }),
    },
  ],
  "POST /dashboard-api/webhooks/{subscriptionId}/disable": [
    { role: "admin", params: (a) => ({ subscriptionId: a.ids.subscription }) },
  ],
  "POST /dashboard-api/webhooks/deliveries/{deliveryId}/redeliver": [
    { role: "admin", params: (a) => ({ deliveryId: a.ids.delivery }) },
  ],
  "POST /dashboard-api/webhooks/deliveries/{deliveryId}/retry-now": [
    { role: "admin", params: (a) => ({ deliveryId: a.ids.delivery }) },
  ],
  "POST /dashboard-api/webhooks/{subscriptionId}/redeliver-failed": [
    { role: "admin", params: (a) => ({ subscriptionId: a.ids.subscription }) },
  ],
  "GET /api/reports/{reportId}/goaml": [
    { role: "reporting_officer", params: (a) => ({ reportId: a.ids.report }) },
    { role: "admin", params: (a) => ({ reportId: a.ids.report }) },
  ],
};

/** Server actions, as `<file relative to app>#<export>`: how B calls each with A's ids. */
const ACTION_MATRIX: Record<string, { role: TRole; args: (a: TTenant) => unknown[] }[]> = {
  "(dashboard)/dashboard/reports/actions.ts#saveFieldsAction": [
    { role: "reporting_officer", args: (a) => [a.ids.report, [{ paths: ["reason"], value: "b" }]] },
  ],
  "(dashboard)/dashboard/reports/actions.ts#editStructureAction": [
    {
      role: "reporting_officer",
      args: (a) => [a.ids.report, { op: "add", parents: ["transactions[0]"], element: "comments" }],
    },
    { role: "reporting_officer", args: (a) => [a.ids.report, { op: "remove", paths: ["reason"] }] },
  ],
  "(dashboard)/dashboard/reports/actions.ts#saveIndicatorsAction": [
    {
      role: "reporting_officer",
      args: (a) => [a.ids.report, null, formData({ indicator: "IND-B", freeIndicators: "X" })],
    },
  ],
  "(dashboard)/dashboard/reports/actions.ts#transitionAction": [
    {
      role: "reporting_officer",
      args: (a) => [a.ids.report, null, formData({ to: "archived", comment: "b" })],
    },
    { role: "reporting_officer", args: (a) => [a.ids.report, null, formData({ to: "pending_review" })] },
  ],
};

function formData(fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return form;
}

function signIn(t: TTenant, role: TRole) {
  session.current = { user: { id: t.dashboard[role] } };
}

// ---- the tests ---------------------------------------------------------------------------------------

let v1Routes: TRouteMethod[] = [];
let before: Awaited<ReturnType<typeof stateOf>>;
let checked = 0;

beforeAll(async () => {
  v1Routes = await discoverRoutes();
  A = await seedTenant("isoA");
  B = await seedTenant("isoB");
  before = await stateOf(A);
});

afterAll(() => {
  console.log(`isolation: ${checked} cross-client calls checked`);
});

describe("tenant isolation: client B calling with client A's ids", () => {
  it("covers every /v1 route with an id in its path", () => {
    const uncovered = v1Routes.filter((r) => r.params.length > 0 && !V1_MATRIX[r.key]).map((r) => r.key);
    expect(uncovered, "add these routes to V1_MATRIX").toEqual([]);
    const stale = Object.keys(V1_MATRIX).filter((k) => !v1Routes.some((r) => r.key === k));
    expect(stale, "V1_MATRIX names routes that no longer exist").toEqual([]);
  });

  it("answers 404 on every /v1 route with an id in its path, exactly as for an unknown id", async () => {
    for (const route of v1Routes.filter((r) => r.params.length > 0))
      for (const c of V1_MATRIX[route.key] ?? []) {
        const context = `B ${route.key} ${JSON.stringify(c.params(A))}`;
        const rowsBefore = await countAllRows();
        const res = await call(route.handler, {
          apiKey: B.apiKey,
          method: route.method,
          params: c.params(A),
          query: c.query,
          body: c.body?.(A),
        });
        checked++;
        expect(res.status, `${context}: ${JSON.stringify(res.body)}`).toBe(c.status ?? 404);
        expectContractError(res, context);
        expectNothingOf(A, res.body, context);
        expect(await countAllRows(), `${context} wrote rows`).toEqual(rowsBefore);
        // The same call with an id unknown to everyone answers the same body (no existence oracle).
        const unknown = Object.fromEntries(Object.keys(c.params(A)).map((k) => [k, `no-such-${k}`]));
        let ghostBody = c.body ? JSON.stringify(c.body(A)) : undefined;
        for (const [k, v] of Object.entries(c.params(A)))
          ghostBody = ghostBody?.replaceAll(JSON.stringify(v), JSON.stringify(unknown[k]));
        const ghost = await call(route.handler, {
          apiKey: B.apiKey,
          method: route.method,
          params: unknown,
          query: c.query,
          body: ghostBody === undefined ? undefined : JSON.parse(ghostBody),
        });
        expect({ status: ghost.status, error: ghost.body.error }).toEqual({
          status: res.status,
          error: res.body.error,
        });
      }
  });

  it("answers 404 (or finds nothing) when A's ids travel in a /v1 request body", async () => {
    for (const c of V1_BODY_CASES) {
      const res = await v1(c.key, B.apiKey, { body: c.body(A) });
      checked++;
      c.expect(res);
      expectNothingOf(A, res.body, `B ${c.key}`);
    }
  });

  it("never lists A's records on B's list endpoints (every /v1 GET without an id)", async () => {
    const lists = v1Routes.filter((r) => r.method === "GET" && r.params.length === 0);
    expect(lists.map((r) => r.key)).toEqual(
      expect.arrayContaining([
        "GET /v1/comments",
        "GET /v1/rules",
        "GET /v1/webhooks",
        "GET /v1/users/blocked",
      ]),
    );
    for (const route of lists) {
      const res = await call(route.handler, { apiKey: B.apiKey, method: "GET" });
      checked++;
      expectNothingOf(A, res.body, `B ${route.key}`);
      // and A's own call does see its records, so the check is not vacuous
      if (
        res.status === 200 &&
        [
          "GET /v1/comments",
          "GET /v1/rules",
          "GET /v1/webhooks",
          "GET /v1/users/blocked",
          "GET /v1/reports",
          "GET /v1/cases",
        ].includes(route.key)
      ) {
        const own = await call(route.handler, { apiKey: A.apiKey, method: "GET" });
        expect(JSON.stringify(own.body), route.key).toContain("isoA");
      }
    }
  });

  it("covers every dashboard API route with an id in its path", async () => {
    const routes = await discoverDashboardRoutes();
    const uncovered = routes.filter((r) => r.params.length > 0 && !DASHBOARD_MATRIX[r.key]).map((r) => r.key);
    expect(uncovered, "add these routes to DASHBOARD_MATRIX").toEqual([]);
  });

  it("answers 404 on every dashboard API route called by B's users with A's ids", async () => {
    for (const route of (await discoverDashboardRoutes()).filter((r) => r.params.length > 0))
      for (const c of DASHBOARD_MATRIX[route.key] ?? []) {
        signIn(B, c.role);
        const context = `B ${c.role} ${route.key} ${JSON.stringify(c.params(A))}`;
        const rowsBefore = await countAllRows();
        const res = await call(route.handler, {
          method: route.method,
          path: route.key.split(" ")[1],
          params: c.params(A),
          body: c.body?.(A),
          query: c.query?.(A),
        });
        checked++;
        expect(res.status, `${context}: ${JSON.stringify(res.body)}`).toBe(404);
        expectNothingOf(A, res.body, context);
        expect(await countAllRows(), `${context} wrote rows`).toEqual(rowsBefore);
      }
    session.current = null;
  });

  it("never lists A's records on B's dashboard lists", async () => {
    for (const route of (await discoverDashboardRoutes()).filter(
      (r) => r.method === "GET" && r.params.length === 0,
    )) {
      signIn(B, "admin");
      const res = await call(route.handler, { method: "GET", path: route.key.split(" ")[1] });
      checked++;
      expect(res.status, `${route.key}: ${JSON.stringify(res.body)?.slice(0, 300)}`).toBe(200);
      expectNothingOf(A, res.body, `B admin ${route.key}`);
    }
    session.current = null;
  });

  it("refuses every dashboard server action on A's records", async () => {
    const actions = await discoverActions();
    const uncovered = actions.filter((a) => !ACTION_MATRIX[a.key]).map((a) => a.key);
    expect(uncovered, "add these server actions to ACTION_MATRIX").toEqual([]);
    for (const action of actions)
      for (const c of ACTION_MATRIX[action.key] ?? []) {
        signIn(B, c.role);
        const rowsBefore = await countAllRows();
        const result = (await action.fn(...c.args(A))) as { ok: boolean; error: string | null };
        checked++;
        expect(result.ok, action.key).toBe(false);
        expect(result.error, action.key).toMatch(/not found/i);
        expectNothingOf(A, result, action.key);
        expect(await countAllRows(), `${action.key} wrote rows`).toEqual(rowsBefore);
      }
    session.current = null;
  });

  it("answers every dashboard API route's hostile path ids with a 4xx in the error body, never a 5xx", async () => {
    const hostile = [
      "\u0000",
      "a\u0000b",
      "x".repeat(10_000),
      "../../etc/passwd",
      "%",
      "' OR 1=1 --",
      "\u202e",
    ];
    for (const route of (await discoverDashboardRoutes()).filter((r) => r.params.length > 0))
      for (const c of (DASHBOARD_MATRIX[route.key] ?? []).slice(0, 1))
        for (const value of hostile) {
          signIn(B, c.role);
          const params = Object.fromEntries(Object.keys(c.params(A)).map((k) => [k, value]));
          const res = await call(route.handler, {
            method: route.method,
            path: route.key.split(" ")[1],
            params,
            body: c.body?.(B),
            query: c.query?.(B),
          });
          checked++;
          const context = `${route.key} ${JSON.stringify(value.slice(0, 20))}: ${JSON.stringify(res.body)?.slice(0, 300)}`;
          expect(res.status, context).toBeGreaterThanOrEqual(400);
          expect(res.status, context).toBeLessThan(500);
          expect(typeof res.body?.error?.type, context).toBe("string");
        }
    session.current = null;
  });

  it("left every record of A as it was", async () => {
    expect(await stateOf(A)).toEqual(before);
  });
});
