import { beforeAll, describe, expect, it, vi } from "vitest";
import { POST as postReviewAlert } from "@/app/dashboard-api/alerts/[alertId]/review/route";
import { POST as postCaseAlerts } from "@/app/dashboard-api/cases/[caseId]/alerts/route";
import { POST as postBulkCases } from "@/app/dashboard-api/cases/bulk/route";
import { PUT as putCaseSla } from "@/app/dashboard-api/settings/case-sla/route";
import { POST as postBlockCaseUser } from "@/app/dashboard-api/cases/[caseId]/block-user/route";
import { POST as postCloseCase } from "@/app/dashboard-api/cases/[caseId]/close/route";
import { POST as postEscalateCase } from "@/app/dashboard-api/cases/[caseId]/escalate/route";
import { POST as postConfirm } from "@/app/dashboard-api/transactions/[transactionId]/confirm/route";
import { POST as postUserStatus } from "@/app/dashboard-api/users/[userId]/status/route";
import { GET as getCaseRoute } from "@/app/v1/cases/[caseId]/route";
import { GET as listCasesRoute } from "@/app/v1/cases/route";
import { POST as postTransaction } from "@/app/v1/transaction/route";
import { POST as postUser } from "@/app/v1/user/route";
import { POST as subscribe } from "@/app/v1/webhooks/route";
import { reviewAlert } from "@/lib/alerts/review-alert";
import { assignCase } from "@/lib/cases/assign-case";
import { blockCaseUser } from "@/lib/cases/block-case-user";
import { bulkCases } from "@/lib/cases/bulk-cases";
import { closeCase } from "@/lib/cases/close-case";
import { commentCase } from "@/lib/cases/comment-case";
import { escalateCase } from "@/lib/cases/escalate-case";
import { getCaseDetail } from "@/lib/cases/get-case-detail";
import { listCaseInbox } from "@/lib/cases/list-case-inbox";
import { takeNextCase } from "@/lib/cases/next-case";
import { reviewCaseAlerts } from "@/lib/cases/review-case-alerts";
import { ZCaseInboxQuery } from "@/lib/cases/schemas";
import { DEFAULT_CASE_SLA_HOURS, updateCaseSla } from "@/lib/cases/sla";
import { prisma } from "@/lib/db";
import { knownApiError } from "@/lib/http/errors";
import { seedDemoReports } from "@/lib/reports/demo-reports";
import { setReportFields } from "@/lib/reports/set-report-fields";
import { transitionReport } from "@/lib/reports/transition-report";
import { importRules } from "@/lib/rules/import-rules";
import { confirmFraud } from "@/lib/transactions/confirm-fraud";
import { call, createTestClient } from "@/tests/factories";

// Cases (docs/decisions.md §12): placement of alerts by the database, SLA due times, the actions that
// work a case, escalation to a filed report, and the read-only API.

const HOUR = 3_600_000;
const RULES = [
  {
    id: "MEDIUM",
    name: "Medium amount",
    subject: "transaction",
    status: "active",
    riskLevel: "medium",
    recommendedAction: "REVIEW",
    reason: "Amount of 1,000 or more",
    condition: "transaction.amount >= 1000",
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
// The dashboard routes validate their bodies: their refusals are checked through them, signed in.
const session = vi.hoisted(() => ({ current: null as null | { user: { id: string } } }));
vi.mock("next-auth", async (importOriginal) => ({
  ...(await importOriginal<typeof import("next-auth")>()),
  getServerSession: () => Promise.resolve(session.current),
}));

type TPerson = Awaited<ReturnType<typeof dashboardUser>>;
let reviewer: TPerson;
let second: TPerson;

async function dashboardUser(
  clientId: string,
  email: string,
  role: "admin" | "reviewer" | "reporting_officer",
) {
  const row = await prisma.dashboardUser.create({
    data: { clientId, email, name: email.split("@")[0]!, role, passwordHash: "-" },
  });
  return { id: row.id, email: row.email, name: row.name!, role };
}

async function screen(client: TClient, id: string, amount: number, userId: string, extra: object = {}) {
  const res = await call(postTransaction, {
    apiKey: client.apiKey,
    body: {
      id,
      userId,
      status: "PENDING",
      currencyCode: "EUR",
      amount,
      timestamp: Date.now() - 60_000,
      ...extra,
    },
  });
  expect(res.status).toBe(200);
  return res.body as { riskLevel: string };
}

async function caseOf(clientId: string, userId: string) {
  return prisma.case.findFirstOrThrow({
    where: { clientId, subjectType: "user", subjectId: userId, status: { not: "closed" } },
  });
}

/** A dashboard route's refusal, as the reviewer unless `as` says otherwise: 400 with details matching `detail`. */
async function expectRefused(
  route: (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>,
  params: Record<string, string>,
  body: object,
  detail: RegExp,
  as: TPerson = reviewer,
) {
  session.current = { user: { id: as.id } };
  const res = await call(route, { path: "/dashboard-api/x", params, body });
  expect(res.status).toBe(400);
  expect(res.body.error.type).toBe("VALIDATION_ERROR");
  expect((res.body.error.details as string[]).join("\n")).toMatch(detail);
}

async function expectApiError(promise: Promise<unknown>, status: number, detail: RegExp) {
  const err = await promise.catch((e: unknown) => e);
  expect(knownApiError(err)?.status).toBe(status);
  expect(knownApiError(err)?.details?.join("\n")).toMatch(detail);
}

beforeAll(async () => {
  a = await createTestClient();
  b = await createTestClient();
  for (const c of [a, b]) await importRules({ clientId: c.clientId, rules: RULES });
  reviewer = await dashboardUser(a.clientId, "case-rev@example.test", "reviewer");
  second = await dashboardUser(a.clientId, "case-rev2@example.test", "reviewer");
});

describe("placement", () => {
  it("concurrent alerts for one user land in one case", async () => {
    await Promise.all(Array.from({ length: 8 }, (_, i) => screen(a, `conc-${i}`, 20_000 + i, "u-conc")));
    const alerts = await prisma.alert.findMany({ where: { clientId: a.clientId, userId: "u-conc" } });
    expect(alerts).toHaveLength(16); // MEDIUM and LARGE on each of the 8 transactions
    const cases = await prisma.case.findMany({
      where: { clientId: a.clientId, subjectType: "user", subjectId: "u-conc" },
    });
    expect(cases).toHaveLength(1);
    expect(new Set(alerts.map((x) => x.caseId))).toEqual(new Set([cases[0]!.id]));
    expect(cases[0]).toMatchObject({ status: "open", priority: "high", alertCount: 16 });
    const created = await prisma.caseEvent.findMany({ where: { caseId: cases[0]!.id, type: "created" } });
    expect(created).toHaveLength(1);
  });

  it("a resubmitted transaction opens no alert and leaves the case unchanged; another user gets another case", async () => {
    const before = await caseOf(a.clientId, "u-conc");
    const body = {
      id: "conc-0",
      userId: "u-conc",
      status: "APPROVED",
      currencyCode: "EUR",
      amount: 20_000,
      timestamp: Date.now() - 30_000,
    };
    expect((await call(postTransaction, { apiKey: a.apiKey, body })).status).toBe(200);
    const after = await caseOf(a.clientId, "u-conc");
    expect(after.alertCount).toBe(before.alertCount);
    await screen(a, "other-1", 2_000, "u-other");
    const other = await caseOf(a.clientId, "u-other");
    expect(other.id).not.toBe(before.id);
    expect(other.priority).toBe("medium");
  });

  it("an alert without a user joins its merchant's case", async () => {
    await screen(a, "m-tx-1", 50, "u-shop", { merchantId: "shop-1" });
    await screen(a, "m-tx-2", 60, "u-shop", { merchantId: "shop-1" });
    const alert = (transactionId: string, ruleRef: string, level: string) =>
      prisma.alert.create({
        data: {
          clientId: a.clientId,
          transactionId,
          userId: null,
          ruleRef,
          ruleId: `M-${ruleRef}`,
          ruleVersionId: "v1",
          ruleName: "Merchant rule",
          level,
          reason: "Merchant pattern",
          recommendedAction: "REVIEW",
        },
      });
    const first = await alert("m-tx-1", "mr-1", "medium");
    const next = await alert("m-tx-2", "mr-1", "very_high");
    expect(first.caseId).toBeTruthy();
    expect(next.caseId).toBe(first.caseId);
    const row = await prisma.case.findUniqueOrThrow({ where: { id: first.caseId! } });
    expect(row).toMatchObject({
      subjectType: "merchant",
      subjectId: "shop-1",
      priority: "very_high",
      alertCount: 2,
    });
  });

  it("a closed case is never joined: the next alert opens a new case", async () => {
    await screen(a, "close-1", 2_000, "u-close");
    const first = await caseOf(a.clientId, "u-close");
    await closeCase({
      clientId: a.clientId,
      caseId: first.id,
      outcome: "false_positive",
      note: "Salary",
      actor: reviewer,
    });
    await screen(a, "close-2", 3_000, "u-close");
    const next = await caseOf(a.clientId, "u-close");
    expect(next.id).not.toBe(first.id);
    const alert = await prisma.alert.findFirstOrThrow({
      where: { clientId: a.clientId, transactionId: "close-2" },
    });
    expect(alert.caseId).toBe(next.id);
  });
});

describe("SLA", () => {
  it("due time per priority from the client's settings, moving nearer when the priority rises", async () => {
    const admin = await dashboardUser(a.clientId, "case-sla-admin@example.test", "admin");
    await expectRefused(
      putCaseSla,
      {},
      { high: -1 },
      /^\/high: Expected number to be greater than 0$/m,
      admin,
    );
    expect((await prisma.client.findUniqueOrThrow({ where: { id: a.clientId } })).caseSlaHours).toBeNull();

    const sla = { very_high: 2, high: 10, medium: 50, medium_low: 100, low: 200 };
    await updateCaseSla({ clientId: a.clientId, actor: reviewer, sla });
    const audit = await prisma.auditLog.findFirstOrThrow({
      where: { clientId: a.clientId, action: "settings.case_sla.updated" },
    });
    expect(audit.details).toEqual({ from: DEFAULT_CASE_SLA_HOURS, to: sla });

    await screen(a, "sla-1", 2_000, "u-sla");
    const medium = await caseOf(a.clientId, "u-sla");
    const firstAlert = await prisma.alert.findFirstOrThrow({
      where: { clientId: a.clientId, transactionId: "sla-1" },
    });
    expect(medium.priority).toBe("medium");
    expect(medium.dueAt.getTime()).toBe(firstAlert.createdAt.getTime() + 50 * HOUR);

    await screen(a, "sla-2", 20_000, "u-sla");
    const high = await caseOf(a.clientId, "u-sla");
    const large = await prisma.alert.findFirstOrThrow({
      where: { clientId: a.clientId, transactionId: "sla-2", ruleId: "LARGE" },
    });
    expect(high.id).toBe(medium.id);
    expect(high.priority).toBe("high");
    expect(high.dueAt.getTime()).toBe(large.createdAt.getTime() + 10 * HOUR);

    // a lower alert neither lowers the priority nor moves the due time
    await screen(a, "sla-3", 2_000, "u-sla");
    const still = await caseOf(a.clientId, "u-sla");
    expect(still.priority).toBe("high");
    expect(still.dueAt.getTime()).toBe(high.dueAt.getTime());
    await updateCaseSla({ clientId: a.clientId, actor: reviewer, sla: DEFAULT_CASE_SLA_HOURS });
  });
});

describe("working a case", () => {
  it("assign, comment, settle selected alerts, close with outcome: every change in the history", async () => {
    await screen(a, "work-1", 20_000, "u-work");
    await screen(a, "work-2", 2_000, "u-work");
    const row = await caseOf(a.clientId, "u-work");
    await assignCase({ clientId: a.clientId, caseId: row.id, assigneeId: reviewer.id, actor: reviewer });
    await commentCase({
      clientId: a.clientId,
      caseId: row.id,
      comment: "Looking at the payouts",
      actor: reviewer,
    });
    const alerts = await prisma.alert.findMany({ where: { caseId: row.id }, orderBy: { createdAt: "asc" } });
    expect(alerts).toHaveLength(3);
    const done = await reviewCaseAlerts({
      clientId: a.clientId,
      caseId: row.id,
      status: "cleared",
      alertIds: [alerts[0]!.id],
      note: "Known salary payment",
      actor: reviewer,
    });
    expect(done.settled).toBe(1);
    await closeCase({
      clientId: a.clientId,
      caseId: row.id,
      outcome: "false_positive",
      note: "Regular customer",
      actor: reviewer,
    });

    const detail = await getCaseDetail({ clientId: a.clientId, caseId: row.id, viewer: reviewer });
    expect(detail.case).toMatchObject({
      status: "closed",
      outcome: "false_positive",
      note: "Regular customer",
    });
    expect(detail.case.closedBy?.email).toBe(reviewer.email);
    expect(detail.events.map((e) => [e.type, e.toStatus])).toEqual([
      ["created", "open"],
      ["assigned", "in_review"],
      ["commented", null],
      ["alerts_reviewed", null],
      ["alerts_reviewed", null],
      ["closed", "closed"],
    ]);
    const stored = await prisma.alert.findMany({ where: { caseId: row.id } });
    expect(stored.every((x) => x.status === "cleared")).toBe(true);
    expect(stored.find((x) => x.id === alerts[0]!.id)!.feedback).toBe("Known salary payment");
    expect(detail.transactions.map((t) => t.id).sort()).toEqual(["work-1", "work-2"]);
    const explained = detail.transactions
      .find((t) => t.id === "work-1")!
      .alerts.find((x) => x.ruleId === "LARGE")!;
    expect(explained.explanation?.values).toEqual({ "transaction.amount": 20_000 });

    // closed: read-only
    await expectApiError(
      commentCase({ clientId: a.clientId, caseId: row.id, comment: "late", actor: reviewer }),
      400,
      /closed case is read-only/,
    );
    await expectApiError(
      reviewAlert({
        clientId: a.clientId,
        alertId: alerts[1]!.id,
        status: "confirmed",
        feedback: "x",
        reviewer,
      }),
      400,
      /settled alert is read-only/,
    );
  });

  it("notes are required: 400 in the contract body and nothing changes", async () => {
    await screen(a, "note-1", 20_000, "u-note");
    const row = await caseOf(a.clientId, "u-note");
    const alert = await prisma.alert.findFirstOrThrow({ where: { caseId: row.id } });
    const onCase = { caseId: row.id };
    const noteRequired = /^\/note: A note is required$/;
    await expectRefused(postCloseCase, onCase, { outcome: "false_positive", note: "  " }, noteRequired);
    await expectRefused(postEscalateCase, onCase, {}, noteRequired);
    await expectRefused(postBlockCaseUser, onCase, { note: "" }, noteRequired);
    await expectRefused(postCaseAlerts, onCase, { status: "confirmed", note: "" }, noteRequired);
    await expectRefused(
      postReviewAlert,
      { alertId: alert.id },
      { status: "escalated" },
      /^\/feedback: A note is required$/,
    );
    await expectRefused(
      postConfirm,
      { transactionId: "note-1" },
      { kind: "fraud", feedback: "" },
      /^\/feedback: A note is required$/,
    );
    await expectRefused(
      postUserStatus,
      { userId: "u-note" },
      { status: "blocked" },
      /^\/comment: A note is required to block a user$/,
    );
    expect(await prisma.case.findUniqueOrThrow({ where: { id: row.id } })).toEqual(row);
    expect((await prisma.alert.findUniqueOrThrow({ where: { id: alert.id } })).status).toBe("open");
    expect(
      (await prisma.transaction.findFirstOrThrow({ where: { clientId: a.clientId, id: "note-1" } })).isFraud,
    ).toBe(false);
    expect(await prisma.caseEvent.count({ where: { caseId: row.id } })).toBe(1);
  });

  it("confirming fraud settles the transaction's open alerts as confirmed (alert.reviewed each), unless asked not to", async () => {
    const sub = await call(subscribe as never, {
      apiKey: a.apiKey,
      body: { url: "https://hooks.example.test/a", events: ["alert.reviewed"], secret: "s3cret" },
    });
    expect(sub.status).toBe(200);
    await screen(a, "fraud-1", 20_000, "u-fraud");
    await screen(a, "fraud-2", 20_000, "u-fraud");
    const result = await confirmFraud({
      closeAlerts: true,
      clientId: a.clientId,
      transactionId: "fraud-1",
      feedback: "Card stolen",
      confirmer: reviewer,
    });
    expect(result.alertsClosed).toBe(2);
    const alerts = await prisma.alert.findMany({
      where: { clientId: a.clientId, transactionId: { in: ["fraud-1", "fraud-2"] } },
    });
    expect(
      alerts.filter((x) => x.transactionId === "fraud-1").map((x) => [x.status, x.feedback, x.reviewedBy]),
    ).toEqual([
      ["confirmed", "Card stolen", reviewer.email],
      ["confirmed", "Card stolen", reviewer.email],
    ]);
    expect(alerts.filter((x) => x.transactionId === "fraud-2").every((x) => x.status === "open")).toBe(true);
    const reviewed = await prisma.webhookDelivery.findMany({
      where: { clientId: a.clientId, eventType: "alert.reviewed" },
    });
    const payloads = reviewed.map(
      (d) => (JSON.parse(d.body) as { payload: { transactionId: string; status: string } }).payload,
    );
    expect(payloads.filter((p) => p.transactionId === "fraud-1").map((p) => p.status)).toEqual([
      "confirmed",
      "confirmed",
    ]);

    const kept = await confirmFraud({
      clientId: a.clientId,
      transactionId: "fraud-2",
      feedback: "Fraud, alerts reviewed apart",
      closeAlerts: false,
      confirmer: reviewer,
    });
    expect(kept.alertsClosed).toBe(0);
    expect(
      (await prisma.alert.findMany({ where: { clientId: a.clientId, transactionId: "fraud-2" } })).every(
        (x) => x.status === "open",
      ),
    ).toBe(true);
  });

  it("blocking a user settles all its open alerts with the verdict and records it on the case", async () => {
    expect(
      (await call(postUser, { apiKey: a.apiKey, body: { id: "u-block", timestamp: Date.now() - 1000 } }))
        .status,
    ).toBe(200);
    await screen(a, "block-1", 20_000, "u-block");
    await screen(a, "block-2", 2_000, "u-block");
    const row = await caseOf(a.clientId, "u-block");
    const result = await blockCaseUser({
      closeAlerts: true,
      clientId: a.clientId,
      caseId: row.id,
      note: "Mule account",
      actor: reviewer,
    });
    expect(result).toMatchObject({ changed: true, alertsClosed: 3 });
    const user = await prisma.user.findUniqueOrThrow({
      where: { clientId_id: { clientId: a.clientId, id: "u-block" } },
    });
    expect(user.status).toBe("blocked");
    const alerts = await prisma.alert.findMany({ where: { caseId: row.id } });
    expect(alerts.map((x) => [x.status, x.feedback])).toEqual(Array(3).fill(["confirmed", "Mule account"]));
    const events = await prisma.caseEvent.findMany({
      where: { caseId: row.id },
      orderBy: { createdAt: "asc" },
    });
    expect(events.map((e) => e.type)).toEqual([
      "created",
      "alerts_reviewed",
      "user_blocked",
      "status_changed",
    ]);
  });

  it("inbox: due first, filters, keyset pages; next case takes the earliest due unassigned or mine", async () => {
    const all = async (query: Record<string, string>) => {
      const out: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await listCaseInbox({
          clientId: a.clientId,
          query: ZCaseInboxQuery.parse({ ...query, limit: "2", cursor }),
          viewer: { id: reviewer.id, role: "reviewer" },
        });
        out.push(...page.cases.map((c) => c.id));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      return out;
    };
    const active = await prisma.case.findMany({
      where: { clientId: a.clientId, status: { not: "closed" } },
      orderBy: [{ dueAt: "asc" }, { id: "asc" }],
    });
    expect(await all({})).toEqual(active.map((c) => c.id));
    expect(await all({ userId: "u-conc" })).toEqual([(await caseOf(a.clientId, "u-conc")).id]);
    expect(await all({ priority: "very_high" })).toEqual(
      active.filter((c) => c.priority === "very_high").map((c) => c.id),
    );
    expect(await all({ ruleId: "M-mr-1" })).toEqual(
      active.filter((c) => c.subjectType === "merchant").map((c) => c.id),
    );
    expect(await all({ status: "all" })).toHaveLength(
      await prisma.case.count({ where: { clientId: a.clientId } }),
    );

    // overdue: due in the past
    const late = await caseOf(a.clientId, "u-other");
    await prisma.case.update({ where: { id: late.id }, data: { dueAt: new Date(Date.now() - HOUR) } });
    expect(await all({ overdue: "true" })).toEqual([late.id]);

    const next = await takeNextCase({ clientId: a.clientId, actor: second });
    expect(next?.id).toBe(late.id);
    const taken = await prisma.case.findUniqueOrThrow({ where: { id: late.id } });
    expect(taken).toMatchObject({ assigneeId: second.id, status: "in_review" });
    expect(await all({ assignee: "me" })).not.toContain(late.id);
    // the first reviewer's next case is another one: the taken case belongs to someone else now
    const mine = await takeNextCase({ clientId: a.clientId, actor: reviewer });
    expect(mine?.id).not.toBe(late.id);
  });

  it("bulk: assign, then close as false positive with one note; an unknown case changes nothing", async () => {
    await screen(a, "bulk-1", 2_000, "u-bulk-1");
    await screen(a, "bulk-2", 2_000, "u-bulk-2");
    const ids = [(await caseOf(a.clientId, "u-bulk-1")).id, (await caseOf(a.clientId, "u-bulk-2")).id];
    await expectApiError(
      bulkCases({
        clientId: a.clientId,
        actor: reviewer,
        input: { action: "assign", caseIds: [...ids, "nope"], assigneeId: second.id },
      }),
      404,
      /^\/caseId: Case not found$/,
    );
    expect(
      (await prisma.case.findMany({ where: { id: { in: ids } } })).every((c) => c.assigneeId === null),
    ).toBe(true);
    await bulkCases({
      clientId: a.clientId,
      actor: reviewer,
      input: { action: "assign", caseIds: ids, assigneeId: second.id },
    });
    expect(
      (await prisma.case.findMany({ where: { id: { in: ids } } })).every((c) => c.assigneeId === second.id),
    ).toBe(true);
    await expectRefused(
      postBulkCases,
      {},
      { action: "close_false_positive", caseIds: ids },
      /^\/note: A note is required$/,
    );
    await bulkCases({
      clientId: a.clientId,
      actor: reviewer,
      input: { action: "close_false_positive", caseIds: ids, note: "Test payments" },
    });
    const closed = await prisma.case.findMany({ where: { id: { in: ids } } });
    expect(closed.map((c) => [c.status, c.outcome, c.closeNote])).toEqual(
      Array(2).fill(["closed", "false_positive", "Test payments"]),
    );
  });
});

describe("escalation", () => {
  it("creates a report draft from the case (user, transactions, suggested indicators); filing it closes the case as reported", async () => {
    const r = await createTestClient({ features: ["reporting"] });
    // rules named in the demo profile's indicator mapping, in place before the demo transactions are screened
    await importRules({
      clientId: r.clientId,
      rules: [
        { ...RULES[1]!, id: "TX-LARGE-AMOUNT", condition: "transaction.amount >= 50000" },
        { ...RULES[0]!, id: "TX-PAYOUT-VELOCITY", condition: "transaction.direction == 'payout'" },
      ],
    });
    await seedDemoReports(r.clientId);
    const rev = await dashboardUser(r.clientId, "esc-rev@example.test", "reviewer");
    const olga = await dashboardUser(r.clientId, "esc-olga@example.test", "reporting_officer");
    const omar = await dashboardUser(r.clientId, "esc-omar@example.test", "reporting_officer");
    const row = await caseOf(r.clientId, "demo-report-subject");
    expect(row.alertCount).toBe(4);

    // reporting officers see only escalated cases
    await expectApiError(
      getCaseDetail({ clientId: r.clientId, caseId: row.id, viewer: olga }),
      404,
      /^\/caseId: Case not found$/,
    );
    const { reportId } = await escalateCase({
      reportType: "STR",
      clientId: r.clientId,
      caseId: row.id,
      note: "Structured payouts to one recipient",
      actor: rev,
    });
    const report = await prisma.report.findUniqueOrThrow({
      where: { clientId_id: { clientId: r.clientId, id: reportId } },
    });
    expect(report).toMatchObject({
      status: "draft",
      userId: "demo-report-subject",
      createdById: rev.id,
      reason: "Structured payouts to one recipient",
      // the officers' list names it by the person, not by the case's uuid
      title: "Escalated case: Daniel Kamau (demo-report-subject)",
    });
    expect(report.transactionIds.sort()).toEqual(["demo-report-tx-1", "demo-report-tx-2"]);
    // TX-LARGE-AMOUNT → STR-PROFILE, TX-PAYOUT-VELOCITY → STR-STRUCT, STR-RAPID (the demo mapping)
    expect(report.indicators.sort()).toEqual(["STR-PROFILE", "STR-RAPID", "STR-STRUCT"]);
    const escalated = await prisma.case.findUniqueOrThrow({ where: { id: row.id } });
    expect(escalated).toMatchObject({ status: "escalated", reportId });
    expect(
      (await prisma.alert.findMany({ where: { caseId: row.id } })).every((x) => x.status === "escalated"),
    ).toBe(true);
    const seen = await getCaseDetail({ clientId: r.clientId, caseId: row.id, viewer: olga });
    expect(seen.case.report).toEqual({ id: reportId, status: "draft" });
    const inbox = await listCaseInbox({
      clientId: r.clientId,
      query: ZCaseInboxQuery.parse({}),
      viewer: { id: olga.id, role: "reporting_officer" },
    });
    expect(inbox.cases.map((c) => c.id)).toEqual([row.id]);
    await expectApiError(
      escalateCase({ reportType: "STR", clientId: r.clientId, caseId: row.id, note: "again", actor: rev }),
      400,
      /already escalated/,
    );

    // the officers complete and file it (four eyes)
    const officer = (o: { id: string }) => ({ type: "dashboard" as const, id: o.id });
    const fields = Object.fromEntries(
      report.incomplete
        .filter((p) => !p.startsWith("reporting_person"))
        .map((p) => [p, p.endsWith("birthdate") ? "1985-06-15T00:00:00" : "Trader"]),
    );
    if (Object.keys(fields).length)
      await setReportFields({ clientId: r.clientId, reportId, actor: officer(olga), fields });
    await transitionReport({ clientId: r.clientId, reportId, to: "pending_review", actor: officer(olga) });
    await transitionReport({
      clientId: r.clientId,
      reportId,
      to: "submitted",
      actor: officer(omar),
      fiuReferenceNumber: "FIU-CASE-1",
    });
    const closed = await prisma.case.findUniqueOrThrow({ where: { id: row.id } });
    expect(closed).toMatchObject({ status: "closed", outcome: "reported", closedById: omar.id });
    expect(closed.closeNote).toContain("FIU-CASE-1");
    expect(
      (await prisma.alert.findMany({ where: { caseId: row.id } })).every((x) => x.status === "confirmed"),
    ).toBe(true);
  });
});

describe("GET /v1/cases", () => {
  it("lists the caller's cases newest first with alertIds, filtered by status and paged", async () => {
    const res = await call(listCasesRoute, { apiKey: a.apiKey, query: { status: "closed", limit: "2" } });
    expect(res.status).toBe(200);
    const total = await prisma.case.count({ where: { clientId: a.clientId, status: "closed" } });
    expect(res.body).toMatchObject({ total, page: 1, pages: Math.ceil(total / 2) });
    expect(res.body.cases).toHaveLength(2);
    const first = res.body.cases[0];
    const alerts = await prisma.alert.findMany({
      where: { caseId: first.id },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    });
    expect(first.alertIds).toEqual(alerts.map((x) => x.id));
    expect(first.status).toBe("closed");
    expect(typeof first.dueAt).toBe("number");

    const walked: string[] = [];
    for (let page = 1; page <= res.body.pages; page++) {
      const p = await call(listCasesRoute, {
        apiKey: a.apiKey,
        query: { status: "closed", limit: "2", page: String(page) },
      });
      walked.push(...p.body.cases.map((c: { id: string }) => c.id));
    }
    const stored = await prisma.case.findMany({
      where: { clientId: a.clientId, status: "closed" },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    });
    expect(walked).toEqual(stored.map((c) => c.id));

    const one = await call(getCaseRoute as never, { apiKey: a.apiKey, params: { caseId: first.id } });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: first.id, alertIds: first.alertIds, outcome: first.outcome });
  });

  it("answers the contract's errors: limit over max, bad page or status, another client's case", async () => {
    const bad: Record<string, string>[] = [
      { limit: "101" },
      { page: "0" },
      { page: "x" },
      { status: "pending" },
    ];
    for (const query of bad) {
      const res = await call(listCasesRoute, { apiKey: a.apiKey, query });
      expect(res.status).toBe(400);
      expect(res.body.error.type).toBe("VALIDATION_ERROR");
    }
    await screen(b, "b-1", 20_000, "u-b");
    const foreign = await caseOf(b.clientId, "u-b");
    const res = await call(getCaseRoute as never, { apiKey: a.apiKey, params: { caseId: foreign.id } });
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ type: "NOT_FOUND", details: ["/caseId: Case not found"] });
    const listed = await call(listCasesRoute, { apiKey: b.apiKey });
    expect(listed.body.cases.map((c: { id: string }) => c.id)).toEqual([foreign.id]);
    expect((await call(listCasesRoute, {})).status).toBe(401);
  });
});
