import { beforeAll, describe, expect, it, vi } from "vitest";
import { POST as postReviewAlert } from "@/app/dashboard-api/alerts/[alertId]/review/route";
import { POST as postUserStatus } from "@/app/dashboard-api/users/[userId]/status/route";
import { POST as postTransaction } from "@/app/v1/transaction/route";
import { POST as postUser } from "@/app/v1/user/route";
import { POST as subscribe } from "@/app/v1/webhooks/route";
import { assignAlert } from "@/lib/alerts/assign-alert";
import { listAlerts } from "@/lib/alerts/list-alerts";
import { reviewAlert } from "@/lib/alerts/review-alert";
import { ZListAlertsQuery } from "@/lib/alerts/schemas";
import { prisma } from "@/lib/db";
import { knownApiError } from "@/lib/http/errors";
import { getOverview } from "@/lib/overview/get-overview";
import { importRules } from "@/lib/rules/import-rules";
import { confirmChargeback } from "@/lib/transactions/confirm-chargeback";
import { confirmFraud } from "@/lib/transactions/confirm-fraud";
import { getTransactionDetail } from "@/lib/transactions/get-transaction-detail";
import { listTransactions, ZListTransactionsQuery } from "@/lib/transactions/list-transactions";
import { changeUserStatusFromDashboard } from "@/lib/users/change-user-status-from-dashboard";
import { getUserProfile } from "@/lib/users/get-user-profile";
import { listUsers, ZListUsersQuery } from "@/lib/users/list-users";
import { call, createTestClient } from "@/tests/factories";

// Refused input is checked through the dashboard routes (which validate it), signed in as a reviewer.
const session = vi.hoisted(() => ({ current: null as null | { user: { id: string } } }));
vi.mock("next-auth", async (importOriginal) => ({
  ...(await importOriginal<typeof import("next-auth")>()),
  getServerSession: () => Promise.resolve(session.current),
}));

/** Signs in a reviewer of the client, a dashboard user row like any other. */
async function signInReviewer(clientId: string, email: string) {
  const row = await prisma.dashboardUser.create({
    data: { clientId, email, name: "Signed-in reviewer", role: "reviewer", passwordHash: "-" },
  });
  session.current = { user: { id: row.id } };
}

// The reviewer screens' domain functions: verdicts, confirmations and status changes write their
// rows and webhook deliveries together; every read is scoped to the client.

const RULES = [
  {
    id: "LARGE",
    name: "Large amount",
    subject: "transaction",
    status: "active",
    riskLevel: "high",
    recommendedAction: "REVIEW",
    reason: "Amount of 10,000 or more",
    condition: "transaction.amount >= 10000",
  },
  {
    id: "SHADOW",
    name: "Shadow large amount",
    subject: "transaction",
    status: "dry-run",
    riskLevel: "very_high",
    recommendedAction: "BLOCK",
    reason: "Trying a lower threshold",
    condition: "transaction.amount >= 5000 && aggregates.userTx24h >= 1",
    aggregates: { userTx24h: { function: "count", over: "transaction", groupBy: "userId", window: "24h" } },
  },
];

const EVENTS = [
  "alert.reviewed",
  "transaction.confirmedFraud",
  "transaction.confirmedChargeback",
  "user.status.block",
];

type TClient = { clientId: string; apiKey: string };
let a: TClient;
let b: TClient;
const reviewer = { id: "dash-user-1", email: "rev@example.test", name: "Rev Iewer" };

async function screen(client: TClient, id: string, amount: number, userId = "u-1") {
  const res = await call(postTransaction, {
    apiKey: client.apiKey,
    body: { id, userId, status: "PENDING", currencyCode: "EUR", amount, timestamp: Date.now() - 60_000 },
  });
  expect(res.status).toBe(200);
  return res.body as { riskLevel: string };
}

async function deliveries(clientId: string, eventType: string) {
  const rows = await prisma.webhookDelivery.findMany({
    where: { clientId, eventType },
    orderBy: { createdAt: "asc" },
  });
  return rows.map(
    (r) => JSON.parse(r.body) as { event: string; payload: Record<string, unknown>; timestamp: number },
  );
}

async function expectNotFound(promise: Promise<unknown>, detail: string) {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(knownApiError(err)?.status).toBe(404);
  expect(knownApiError(err)?.details).toEqual([detail]);
}

beforeAll(async () => {
  a = await createTestClient({ type: "consumer" });
  b = await createTestClient({ type: "consumer" });
  for (const c of [a, b]) {
    await importRules({ clientId: c.clientId, rules: RULES });
    const sub = await call(subscribe as never, {
      apiKey: c.apiKey,
      body: { url: "https://hooks.example.test/in", events: EVENTS, secret: "whsec_dashboard" },
    });
    expect(sub.status).toBe(200);
    for (const id of ["u-1", "u-2"])
      expect(
        (
          await call(postUser, {
            apiKey: c.apiKey,
            body: {
              id,
              firstName: "Ana",
              lastName: id,
              email: { email: `${id}@mail.test` },
              timestamp: Date.now() - 86_400_000,
            },
          })
        ).status,
      ).toBe(200);
  }
  expect((await screen(a, "tx-big", 12_000)).riskLevel).toBe("high");
  expect((await screen(a, "tx-small", 10)).riskLevel).toBe("low");
  expect((await screen(b, "tx-b", 20_000)).riskLevel).toBe("high");
});

describe("alerts", () => {
  it("lists open alerts newest first with transaction and user, scoped to the client", async () => {
    const list = await listAlerts({ clientId: a.clientId, query: ZListAlertsQuery.parse({}) });
    expect(list.alerts.map((x) => [x.transactionId, x.ruleId, x.level, x.status, x.userId])).toEqual([
      ["tx-big", "LARGE", "high", "open", "u-1"],
    ]);
    expect(list.alerts[0]!.transaction).toEqual({ amount: "12000", currencyCode: "EUR", status: "PENDING" });
    expect(list.alerts[0]!.userName).toBe("Ana u-1");
    expect(list.nextCursor).toBeNull();
    const filtered = await listAlerts({
      clientId: a.clientId,
      query: ZListAlertsQuery.parse({ level: "low" }),
    });
    expect(filtered.alerts).toEqual([]);
  });

  it("keyset pagination walks every alert once", async () => {
    for (let i = 0; i < 5; i++) await screen(a, `tx-page-${i}`, 10_000 + i, "u-2");
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let guard = 0; guard < 10; guard++) {
      const page = await listAlerts({
        clientId: a.clientId,
        query: ZListAlertsQuery.parse({ limit: "2", cursor }),
      });
      seen.push(...page.alerts.map((x) => x.transactionId));
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    expect(seen).toHaveLength(6);
    expect(new Set(seen).size).toBe(6);
  });

  it("reviewAlert stores the verdict, emits alert.reviewed and writes an audit row", async () => {
    const [alert] = (
      await listAlerts({ clientId: a.clientId, query: ZListAlertsQuery.parse({}) })
    ).alerts.filter((x) => x.transactionId === "tx-big");
    const assigned = await assignAlert({ clientId: a.clientId, alertId: alert!.id, actor: reviewer });
    expect(assigned.assignedToId).toBe(reviewer.id);
    const mine = await listAlerts({
      clientId: a.clientId,
      currentUserId: reviewer.id,
      query: ZListAlertsQuery.parse({ assigned: "me" }),
    });
    expect(mine.alerts.map((x) => x.id)).toEqual([alert!.id]);

    const reviewed = await reviewAlert({
      clientId: a.clientId,
      alertId: alert!.id,
      status: "cleared",
      feedback: "Known customer, salary",
      reviewer,
    });
    const stored = await prisma.alert.findUniqueOrThrow({ where: { id: alert!.id } });
    expect(stored).toMatchObject({
      status: "cleared",
      reviewedBy: "rev@example.test",
      feedback: "Known customer, salary",
    });
    expect(stored.reviewedAt?.getTime()).toBe(reviewed.reviewedAt);

    const sent = await deliveries(a.clientId, "alert.reviewed");
    expect(sent).toEqual([
      {
        event: "alert.reviewed",
        payload: {
          transactionId: "tx-big",
          ruleId: "LARGE",
          status: "cleared",
          reviewedBy: "rev@example.test",
          reviewedAt: reviewed.reviewedAt,
          feedback: "Known customer, salary",
        },
        timestamp: reviewed.reviewedAt,
      },
    ]);
    const audit = await prisma.auditLog.findMany({
      where: { clientId: a.clientId, entityId: alert!.id },
      orderBy: { createdAt: "asc" },
    });
    expect(audit.map((r) => [r.action, r.actorType, r.actorId])).toEqual([
      ["alert.assigned", "dashboard_user", reviewer.id],
      ["alert.reviewed", "dashboard_user", reviewer.id],
    ]);

    const open = await listAlerts({ clientId: a.clientId, query: ZListAlertsQuery.parse({}) });
    expect(open.alerts.map((x) => x.transactionId)).not.toContain("tx-big");
    const cleared = await listAlerts({
      clientId: a.clientId,
      query: ZListAlertsQuery.parse({ status: "cleared" }),
    });
    expect(cleared.alerts.map((x) => x.transactionId)).toEqual(["tx-big"]);
  });

  it("an invalid review status is rejected and changes nothing", async () => {
    const [alert] = (
      await listAlerts({ clientId: a.clientId, query: ZListAlertsQuery.parse({ limit: "1" }) })
    ).alerts;
    await signInReviewer(a.clientId, "review-status@example.test");
    const res = await call(postReviewAlert, {
      path: "/dashboard-api/alerts/x/review",
      params: { alertId: alert!.id },
      body: { status: "approved", feedback: "looks fine" },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0]).toMatch(/^\/status: /);
    expect((await prisma.alert.findUniqueOrThrow({ where: { id: alert!.id } })).status).toBe("open");
  });

  it("two reviewers settling the same alert at once: one verdict stands, the other is refused", async () => {
    const [alert] = (
      await listAlerts({ clientId: a.clientId, query: ZListAlertsQuery.parse({ limit: "1" }) })
    ).alerts;
    const before = (await deliveries(a.clientId, "alert.reviewed")).length;
    const results = await Promise.allSettled(
      (["cleared", "confirmed"] as const).map((status) =>
        reviewAlert({
          clientId: a.clientId,
          alertId: alert!.id,
          status,
          feedback: `race ${status}`,
          reviewer,
        }),
      ),
    );
    const won = results.filter((r) => r.status === "fulfilled");
    const lost = results.filter((r) => r.status === "rejected");
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    const refused = knownApiError((lost[0] as PromiseRejectedResult).reason);
    // a state conflict answers in the contract's validation body, as for any settled alert
    expect(refused?.status).toBe(400);
    expect(refused?.details?.[0]).toMatch(/reviewed meanwhile|read-only/);
    const verdict = (won[0] as PromiseFulfilledResult<{ status: string }>).value.status;
    const stored = await prisma.alert.findUniqueOrThrow({ where: { id: alert!.id } });
    expect(stored).toMatchObject({ status: verdict, feedback: `race ${verdict}` });
    const sent = await deliveries(a.clientId, "alert.reviewed");
    expect(sent).toHaveLength(before + 1);
    expect(
      await prisma.auditLog.count({
        where: { clientId: a.clientId, entityId: alert!.id, action: "alert.reviewed" },
      }),
    ).toBe(1);
  });

  it("another client's alert is not found, for review and assignment", async () => {
    const [foreign] = (await listAlerts({ clientId: b.clientId, query: ZListAlertsQuery.parse({}) })).alerts;
    await expectNotFound(
      reviewAlert({
        clientId: a.clientId,
        alertId: foreign!.id,
        status: "confirmed",
        feedback: "Seen",
        reviewer,
      }),
      "/alertId: Alert not found",
    );
    await expectNotFound(
      assignAlert({ clientId: a.clientId, alertId: foreign!.id, actor: reviewer }),
      "/alertId: Alert not found",
    );
    expect((await prisma.alert.findUniqueOrThrow({ where: { id: foreign!.id } })).status).toBe("open");
    expect(await deliveries(b.clientId, "alert.reviewed")).toEqual([]);
  });
});

describe("transactions", () => {
  it("confirmFraud marks the transaction, records the update and emits transaction.confirmedFraud once", async () => {
    const first = await confirmFraud({
      closeAlerts: true,
      clientId: a.clientId,
      transactionId: "tx-big",
      feedback: "Card stolen",
      confirmer: reviewer,
    });
    const again = await confirmFraud({
      closeAlerts: true,
      clientId: a.clientId,
      transactionId: "tx-big",
      feedback: "Card stolen",
      confirmer: reviewer,
    });
    expect([first.changed, again.changed]).toEqual([true, false]);
    const row = await prisma.transaction.findUniqueOrThrow({
      where: { clientId_id: { clientId: a.clientId, id: "tx-big" } },
    });
    expect(row.isFraud).toBe(true);
    expect(row.status).toBe("PENDING");
    expect(await deliveries(a.clientId, "transaction.confirmedFraud")).toEqual([
      {
        event: "transaction.confirmedFraud",
        payload: {
          transactionId: "tx-big",
          feedback: "Card stolen",
          confirmedBy: "rev@example.test",
          confirmedAt: first.confirmedAt,
        },
        timestamp: first.confirmedAt,
      },
    ]);
    const updates = await prisma.transactionUpdate.findMany({
      where: { clientId: a.clientId, transactionId: "tx-big", source: "dashboard" },
    });
    expect(updates.map((u) => [u.source, u.type, u.isFraudulent, u.actor, u.description])).toEqual([
      ["dashboard", "confirmed_fraud", true, "rev@example.test", "Card stolen"],
    ]);
  });

  it("confirmChargeback sets isChargeback and status CHARGEBACK and emits transaction.confirmedChargeback", async () => {
    const done = await confirmChargeback({
      closeAlerts: true,
      clientId: a.clientId,
      transactionId: "tx-small",
      feedback: "Issuer notice 42",
      confirmer: reviewer,
    });
    const row = await prisma.transaction.findUniqueOrThrow({
      where: { clientId_id: { clientId: a.clientId, id: "tx-small" } },
    });
    expect([row.isChargeback, row.status, row.isFraud]).toEqual([true, "CHARGEBACK", false]);
    expect(await deliveries(a.clientId, "transaction.confirmedChargeback")).toEqual([
      {
        event: "transaction.confirmedChargeback",
        payload: {
          transactionId: "tx-small",
          feedback: "Issuer notice 42",
          confirmedBy: "rev@example.test",
          confirmedAt: done.confirmedAt,
        },
        timestamp: done.confirmedAt,
      },
    ]);
    const detail = await getTransactionDetail({ clientId: a.clientId, transactionId: "tx-small" });
    expect(detail.transaction.status).toBe("CHARGEBACK");
    expect(detail.updates.map((u) => [u.status, u.source, u.type])).toEqual([
      ["PENDING", "api", "submitted"],
      ["CHARGEBACK", "dashboard", "confirmed_chargeback"],
    ]);
  });

  it("another client's transaction is not found for confirmations and the page", async () => {
    await expectNotFound(
      confirmFraud({
        closeAlerts: true,
        clientId: a.clientId,
        transactionId: "tx-b",
        feedback: "Card stolen",
        confirmer: reviewer,
      }),
      "/transactionId: Transaction not found",
    );
    await expectNotFound(
      confirmChargeback({
        closeAlerts: true,
        clientId: a.clientId,
        transactionId: "tx-b",
        feedback: "Issuer notice",
        confirmer: reviewer,
      }),
      "/transactionId: Transaction not found",
    );
    await expectNotFound(
      getTransactionDetail({ clientId: a.clientId, transactionId: "tx-b" }),
      "/transactionId: Transaction not found",
    );
    const row = await prisma.transaction.findUniqueOrThrow({
      where: { clientId_id: { clientId: b.clientId, id: "tx-b" } },
    });
    expect([row.isFraud, row.isChargeback]).toEqual([false, false]);
    expect(await deliveries(b.clientId, "transaction.confirmedFraud")).toEqual([]);
  });

  it("the transaction page explains the decision: fired rule, condition, values, version, dry-run hits apart", async () => {
    const detail = await getTransactionDetail({ clientId: a.clientId, transactionId: "tx-big" });
    expect(detail.transaction).toMatchObject({
      id: "tx-big",
      amount: "12000",
      riskLevel: "high",
      isFraud: true,
    });
    expect(detail.transaction.request).toMatchObject({ id: "tx-big", amount: 12000, userId: "u-1" });
    const d = detail.decision!;
    expect(d.fired.map((r) => [r.ruleId, r.version, r.condition, r.values])).toEqual([
      ["LARGE", 1, "transaction.amount >= 10000", { "transaction.amount": 12000 }],
    ]);
    expect(d.shadowHits.map((r) => [r.ruleId, r.status, r.aggregates])).toEqual([
      ["SHADOW", "dry-run", { userTx24h: 1 }],
    ]);
    expect(detail.alerts.map((x) => [x.ruleId, x.status])).toEqual([["LARGE", "cleared"]]);
    expect(detail.user).toEqual({ id: "u-1", name: "Ana u-1", status: "active" });
  });

  it("a decision stored without rule version ids is still explained", async () => {
    const decision = await prisma.decision.create({
      data: {
        clientId: a.clientId,
        subjectType: "transaction",
        subjectId: "tx-small",
        riskLevel: "low",
        recommendedAction: "ALLOW",
        evaluated: [{ ruleId: "OLD", status: "dry-run", triggered: true }],
        aggregates: {},
        input: {},
        response: {},
        durationMs: 1,
      },
    });
    await prisma.transaction.update({
      where: { clientId_id: { clientId: a.clientId, id: "tx-small" } },
      data: { decisionId: decision.id },
    });
    const detail = await getTransactionDetail({ clientId: a.clientId, transactionId: "tx-small" });
    expect(detail.decision?.shadowHits.map((r) => [r.ruleId, r.name, r.condition])).toEqual([
      ["OLD", "OLD", null],
    ]);
    expect(detail.previousDecisions).toHaveLength(1);
  });

  it("lists transactions with filters and keyset pages, scoped to the client", async () => {
    const all = await listTransactions({
      clientId: a.clientId,
      query: ZListTransactionsQuery.parse({ limit: "100" }),
    });
    expect(all.transactions).toHaveLength(7);
    expect(all.transactions.map((t) => t.id)).not.toContain("tx-b");
    const high = await listTransactions({
      clientId: a.clientId,
      query: ZListTransactionsQuery.parse({ riskLevel: "high", userId: "u-1" }),
    });
    expect(high.transactions.map((t) => t.id)).toEqual(["tx-big"]);
    const cb = await listTransactions({
      clientId: a.clientId,
      query: ZListTransactionsQuery.parse({ status: "CHARGEBACK" }),
    });
    expect(cb.transactions.map((t) => t.id)).toEqual(["tx-small"]);
    const first = await listTransactions({
      clientId: a.clientId,
      query: ZListTransactionsQuery.parse({ limit: "4" }),
    });
    const second = await listTransactions({
      clientId: a.clientId,
      query: ZListTransactionsQuery.parse({ limit: "4", cursor: first.nextCursor }),
    });
    expect(second.nextCursor).toBeNull();
    expect(new Set([...first.transactions, ...second.transactions].map((t) => t.id)).size).toBe(7);
  });
});

describe("users", () => {
  it("blocking from the dashboard goes through setUserStatus: user.status.block, history, audit", async () => {
    const result = await changeUserStatusFromDashboard({
      closeAlerts: true,
      clientId: a.clientId,
      userId: "u-2",
      status: "blocked",
      comment: "Mule pattern",
      actor: reviewer,
    });
    expect(result.changed).toBe(true);
    expect(await deliveries(a.clientId, "user.status.block")).toEqual([
      {
        event: "user.status.block",
        payload: {
          id: "u-2",
          status: "blocked",
          reason: "Mule pattern (reviewer: rev@example.test)",
          updatedAt: result.updatedAt,
        },
        timestamp: result.updatedAt,
      },
    ]);
    const profile = await getUserProfile({ clientId: a.clientId, userId: "u-2" });
    expect(profile.user.status).toBe("blocked");
    expect(profile.statusHistory[0]).toMatchObject({
      fromStatus: "active",
      toStatus: "blocked",
      source: "dashboard",
      comment: "Mule pattern",
    });
    const audit = await prisma.auditLog.findMany({
      where: { clientId: a.clientId, entityType: "user", entityId: "u-2" },
    });
    expect(audit.map((r) => r.action)).toEqual(["user.status.blocked"]);
  });

  it("another client's user is not found; an unknown status is rejected", async () => {
    await expectNotFound(
      changeUserStatusFromDashboard({
        closeAlerts: true,
        clientId: a.clientId,
        userId: "nobody",
        status: "blocked",
        comment: "Mule pattern",
        actor: reviewer,
      }),
      "/userId: User not found",
    );
    await expectNotFound(
      getUserProfile({ clientId: b.clientId, userId: "u-404" }),
      "/userId: User not found",
    );
    await signInReviewer(a.clientId, "user-status@example.test");
    const res = await call(postUserStatus, {
      path: "/dashboard-api/users/u-1/status",
      params: { userId: "u-1" },
      body: { status: "gone" },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0]).toMatch(/^\/status: /);
  });

  it("searches users by id, name and email with a status filter", async () => {
    const byEmail = await listUsers({
      clientId: a.clientId,
      query: ZListUsersQuery.parse({ q: "U-2@MAIL" }),
    });
    expect(byEmail.users.map((u) => u.id)).toEqual(["u-2"]);
    const byId = await listUsers({ clientId: a.clientId, query: ZListUsersQuery.parse({ q: "u-" }) });
    expect(byId.users.map((u) => u.id)).toEqual(["u-1", "u-2"]);
    const literal = await listUsers({ clientId: a.clientId, query: ZListUsersQuery.parse({ q: "u_" }) });
    expect(literal.users).toEqual([]);
    const blocked = await listUsers({
      clientId: a.clientId,
      query: ZListUsersQuery.parse({ status: "blocked" }),
    });
    expect(blocked.users.map((u) => u.id)).toEqual(["u-2"]);
    const byName = await listUsers({ clientId: a.clientId, query: ZListUsersQuery.parse({ q: "ana" }) });
    expect(byName.users.map((u) => u.id)).toEqual(["u-1", "u-2"]);
  });
});

describe("overview", () => {
  it("counts screenings by hour, level and action, open alerts and top rules", async () => {
    const o = await getOverview({ clientId: a.clientId });
    expect(o.perHour).toHaveLength(24);
    expect(o.screened24h).toBe(7);
    expect(o.perHour.reduce((s, h) => s + h.count, 0)).toBe(7);
    expect(o.byRiskLevel).toEqual([
      { key: "high", count: 6 },
      { key: "low", count: 1 },
    ]);
    // 6 alerts: one cleared by a review, the others settled by the fraud confirmation and the block above
    const open = await prisma.alert.count({ where: { clientId: a.clientId, status: "open" } });
    expect(open).toBeLessThan(5);
    expect(o.openAlerts).toEqual({ count: open, capped: false });
    expect(o.topRules7d).toEqual([{ ruleId: "LARGE", ruleName: "Large amount", count: 6 }]);
  });
});
