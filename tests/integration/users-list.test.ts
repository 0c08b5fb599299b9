import { beforeAll, describe, expect, it } from "vitest";
import { POST as postEvent } from "@/app/v1/event/route";
import { POST as postTransaction } from "@/app/v1/transaction/route";
import { POST as postUser } from "@/app/v1/user/route";
import { prisma } from "@/lib/db";
import { reviewAlert } from "@/lib/alerts/review-alert";
import { closeCase } from "@/lib/cases/close-case";
import { importRules } from "@/lib/rules/import-rules";
import { listUsers, ZListUsersQuery } from "@/lib/users/list-users";
import { call, createTestClient } from "@/tests/factories";

// The users list a reviewer works from: each user's risk (highest open alert, else latest transaction),
// the alerts still to settle and the last activity, scoped to the client.

const HOUR = 3_600_000;
const REVIEWER = { id: "rev-1", email: "rev@example.test", name: "Rev" };
const NOW = Date.now();

const RULES = [
  {
    id: "HUGE",
    name: "Huge amount",
    subject: "transaction",
    status: "active",
    riskLevel: "very_high",
    recommendedAction: "BLOCK",
    reason: "Amount of 50,000 or more",
    condition: "transaction.amount >= 50000",
  },
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
];

type TClient = { clientId: string; apiKey: string };
let a: TClient;
let b: TClient;

async function user(client: TClient, id: string, createdAt: number) {
  const res = await call(postUser, {
    apiKey: client.apiKey,
    body: { id, firstName: "Ana", lastName: id, timestamp: createdAt },
  });
  expect(res.status).toBe(200);
}

async function screen(client: TClient, id: string, userId: string, amount: number, at: number) {
  const res = await call(postTransaction, {
    apiKey: client.apiKey,
    body: { id, userId, status: "PENDING", currencyCode: "EUR", amount, timestamp: at },
  });
  expect(res.status).toBe(200);
}

async function page(client: TClient, q?: string) {
  const { users } = await listUsers({ clientId: client.clientId, query: ZListUsersQuery.parse({ q }) });
  return Object.fromEntries(users.map((u) => [u.id, u]));
}

beforeAll(async () => {
  a = await createTestClient({ type: "consumer" });
  b = await createTestClient({ type: "consumer" });
  for (const c of [a, b]) await importRules({ clientId: c.clientId, rules: RULES });
  await user(a, "u-alerts", NOW - 48 * HOUR);
  await user(a, "u-quiet", NOW - 48 * HOUR);
  await user(a, "u-new", NOW - 2 * HOUR);
  await user(b, "u-alerts", NOW - 48 * HOUR);
  // u-alerts: a huge payment (very high + high alerts), then a small one later (low)
  await screen(a, "t-huge", "u-alerts", 60_000, NOW - 10 * HOUR);
  await screen(a, "t-small", "u-alerts", 20, NOW - 5 * HOUR);
  // u-quiet: one small payment, then a login event later still
  await screen(a, "t-quiet", "u-quiet", 15, NOW - 8 * HOUR);
  const ev = await call(postEvent, {
    apiKey: a.apiKey,
    body: { id: "e-login", type: "LOGIN", userId: "u-quiet", timestamp: NOW - 3 * HOUR },
  });
  expect(ev.status).toBe(200);
  // client B's user of the same id has many alerts: none may show on A's list
  await screen(b, "t-b1", "u-alerts", 90_000, NOW - HOUR);
});

describe("users list", () => {
  it("shows the highest open alert level, the open cases and the alerts still to settle", async () => {
    const users = await page(a);
    // both alerts of the payment joined the user's one open case
    expect(users["u-alerts"]).toMatchObject({
      riskLevel: "very_high",
      riskSource: "open_alerts",
      openAlerts: 2,
      openCases: 1,
    });
  });

  it("falls back to the latest transaction's risk, and to nothing for a user never screened", async () => {
    const users = await page(a);
    expect(users["u-quiet"]).toMatchObject({
      riskLevel: "low",
      riskSource: "latest_transaction",
      openAlerts: 0,
    });
    expect(users["u-new"]).toMatchObject({ riskLevel: null, riskSource: null, openAlerts: 0, openCases: 0 });
  });

  it("dates the last activity by the latest transaction or event, else the creation", async () => {
    const users = await page(a);
    expect(users["u-alerts"]!.lastActivityAt).toBe(NOW - 5 * HOUR);
    expect(users["u-quiet"]!.lastActivityAt).toBe(NOW - 3 * HOUR);
    expect(users["u-new"]!.lastActivityAt).toBe(NOW - 2 * HOUR);
  });

  it("drops settled alerts: the risk follows the remaining open ones", async () => {
    const alerts = await prisma.alert.findMany({
      where: { clientId: a.clientId, userId: "u-alerts" },
      orderBy: { level: "asc" },
    });
    const veryHigh = alerts.find((x) => x.level === "very_high")!;
    await reviewAlert({
      clientId: a.clientId,
      alertId: veryHigh.id,
      status: "cleared",
      feedback: "Known salary payment",
      reviewer: REVIEWER,
    });
    expect((await page(a))["u-alerts"]).toMatchObject({
      riskLevel: "high",
      riskSource: "open_alerts",
      openAlerts: 1,
    });
    const high = alerts.find((x) => x.level === "high")!;
    await reviewAlert({
      clientId: a.clientId,
      alertId: high.id,
      status: "cleared",
      feedback: "Same payment",
      reviewer: REVIEWER,
    });
    expect((await page(a))["u-alerts"]).toMatchObject({
      riskLevel: "low",
      riskSource: "latest_transaction",
      openAlerts: 0,
    });
  });

  it("stops counting a case once it is closed", async () => {
    const open = await prisma.case.findFirstOrThrow({
      where: { clientId: a.clientId, subjectType: "user", subjectId: "u-alerts", status: { not: "closed" } },
    });
    await closeCase({
      clientId: a.clientId,
      caseId: open.id,
      outcome: "false_positive",
      note: "Salary payments, documents on file",
      actor: REVIEWER,
    });
    expect((await page(a))["u-alerts"]).toMatchObject({ openCases: 0 });
  });

  it("counts only the client's own alerts, cases and transactions", async () => {
    const other = await page(b, "u-alerts");
    expect(other["u-alerts"]).toMatchObject({ riskLevel: "very_high", openAlerts: 2, openCases: 1 });
    expect(other["u-alerts"]!.lastActivityAt).toBe(NOW - HOUR);
  });
});
