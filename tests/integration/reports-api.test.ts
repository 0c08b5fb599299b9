import { beforeAll, describe, expect, it } from "vitest";
import { POST as postReport } from "@/app/v1/report/route";
import { POST as postBulk } from "@/app/v1/reports/bulk/route";
import { GET as getReportRoute } from "@/app/v1/reports/[reportId]/route";
import { GET as listRoute } from "@/app/v1/reports/route";
import { POST as postTransaction } from "@/app/v1/transaction/route";
import { POST as postUser } from "@/app/v1/user/route";
import { prisma } from "@/lib/db";
import { saveMerchant } from "@/lib/merchants/save-merchant";
import { ZMerchant } from "@/lib/merchants/schemas";
import { SUBJECT_REQUIRED } from "@/lib/reports/schemas";
import { call, createTestClient } from "@/tests/factories";

let apiKey: string;
let clientId: string;
let otherKey: string;
let noFeatureKey: string;

const now = () => Date.now() - 1000;
const tx = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  userId: "r-alice",
  status: "APPROVED",
  currencyCode: "KES",
  amount: 2500,
  timestamp: now(),
  direction: "payout",
  ...extra,
});
const create = (body: unknown, key = apiKey) => call(postReport, { apiKey: key, body });
const read = (reportId: string, query: Record<string, string> = {}, key = apiKey) =>
  call(getReportRoute, { apiKey: key, params: { reportId }, query });
const list = (query: Record<string, string> = {}, key = apiKey) => call(listRoute, { apiKey: key, query });

beforeAll(async () => {
  ({ apiKey, clientId } = await createTestClient({ features: ["reporting"] }));
  ({ apiKey: otherKey } = await createTestClient({ features: ["reporting"], name: "Other" }));
  ({ apiKey: noFeatureKey } = await createTestClient({ name: "No reporting" }));
  await call(postUser, {
    apiKey,
    body: {
      id: "r-alice",
      timestamp: now(),
      firstName: "Alice",
      lastName: "Ngugi",
      dateOfBirth: "1990-04-01",
      phone: { phone: "+254700111222" },
    },
  });
  for (const id of ["r-tx-1", "r-tx-2"]) {
    const res = await call(postTransaction, { apiKey, body: tx(id) });
    expect(res.status).toBe(200);
  }
  await saveMerchant({
    clientId,
    merchant: ZMerchant.parse({ id: "r-merchant", name: "Corner Shop", timestamp: now() }),
  });
  await prisma.reportTemplate.create({
    data: {
      clientId,
      id: "tpl-structuring",
      title: "Structuring",
      reason: "Many deposits under the threshold",
      action: "Account restricted",
      indicators: ["IND-1", "IND-2"],
    },
  });
});

describe("POST /v1/report", () => {
  it("answers 403 FORBIDDEN when the client lacks the reporting feature", async () => {
    const res = await create({ reportType: "STR", userId: "r-alice" }, noFeatureKey);
    expect(res.status).toBe(403);
    expect(res.body.error.type).toBe("FORBIDDEN");
    for (const r of [
      await call(postBulk, { apiKey: noFeatureKey, body: { reports: [] } }),
      await read("x", {}, noFeatureKey),
      await list({}, noFeatureKey),
    ])
      expect(r.status).toBe(403);
  });

  it("creates a draft from stored entities with the contract's response", async () => {
    const before = Date.now();
    const res = await create({
      reportType: "STR",
      reportNumber: "CASE-1",
      title: "Payouts",
      userId: "r-alice",
      transactionIds: ["r-tx-1", "r-tx-2"],
      merchantId: "r-merchant",
      indicators: ["IND-9"],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      reportId: expect.any(String),
      status: "draft",
      reportType: "STR",
      reportNumber: "CASE-1",
      fiuReferenceNumber: null,
      createdAt: expect.any(Number),
      requiresReview: true,
      populated: { user: true, merchant: true, transactions: 2, indicators: 1 },
      incomplete: expect.any(Array),
      timestamp: expect.any(Number),
    });
    expect(res.body.createdAt).toBeGreaterThanOrEqual(before);
    // Nothing about the reporting entity is configured, and the user has no occupation on record.
    expect(res.body.incomplete).toEqual(
      expect.arrayContaining([
        "rentity_id",
        "reporting_person.first_name",
        "transactions[0].t_from_my_client.from_person.occupation",
      ]),
    );
    expect(res.body.incomplete).not.toContain("transactions[0].t_from_my_client.from_person.birthdate");
    const row = await prisma.report.findUniqueOrThrow({
      where: { clientId_id: { clientId, id: res.body.reportId } },
    });
    expect(row).toMatchObject({
      status: "draft",
      createdById: "api",
      userId: "r-alice",
      merchantId: "r-merchant",
      transactionIds: ["r-tx-1", "r-tx-2"],
    });
    const content = row.content as any;
    expect(content.transactions[1].transactionnumber).toBe("r-tx-2");
    expect(content.transactions[0].t_from_my_client.from_person).toMatchObject({
      first_name: "Alice",
      last_name: "Ngugi",
      birthdate: "1990-04-01T00:00:00",
    });
    expect(content.transactions[0].t_to.to_entity.name).toBe("Corner Shop");
    expect(content.report_indicators).toEqual(["IND-9"]);
  });

  it("a report without reportNumber leaves it out of the response", async () => {
    const res = await create({ reportType: "SAR", userId: "r-alice" });
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty("reportNumber");
    expect(res.body.populated).toEqual({ user: true, merchant: false, transactions: 0, indicators: 0 });
    expect(res.body.incomplete).toContain("report_indicators");
  });

  it("rejects a request without a subject, a merchant alone included, and stores nothing", async () => {
    const count = await prisma.report.count({ where: { clientId } });
    for (const body of [
      { reportType: "STR" },
      { reportType: "STR", merchantId: "r-merchant" },
      { reportType: "STR", transactionIds: [] },
    ]) {
      const res = await create(body);
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual({
        type: "VALIDATION_ERROR",
        message: "Request validation failed",
        details: [`/: ${SUBJECT_REQUIRED}`],
      });
    }
    expect(await prisma.report.count({ where: { clientId } })).toBe(count);
  });

  it("validates reportType and the mutually exclusive pairs", async () => {
    let res = await create({ userId: "r-alice" });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toContain("/reportType: Required");
    res = await create({ reportType: "XYZ", userId: "r-alice" });
    expect(res.body.error.details[0]).toMatch(/^\/reportType: /);
    res = await create({ reportType: "STR", userId: "r-alice", user: { id: "r-alice", timestamp: now() } });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toContain("/user: userId and user are mutually exclusive");
    res = await create({ reportType: "STR", transactionIds: ["r-tx-1"], transactions: [tx("r-tx-9")] });
    expect(res.body.error.details).toContain(
      "/transactions: transactionIds and transactions are mutually exclusive",
    );
    res = await create({
      reportType: "STR",
      userId: "r-alice",
      merchantId: "r-merchant",
      merchant: { id: "m", name: "M", timestamp: now() },
    });
    expect(res.body.error.details).toContain("/merchant: merchantId and merchant are mutually exclusive");
  });

  it("answers 404 naming each missing reference", async () => {
    let res = await create({ reportType: "STR", userId: "nobody" });
    expect(res.status).toBe(404);
    expect(res.body.error).toEqual({
      type: "NOT_FOUND",
      message: "User not found",
      details: ["/userId: User not found"],
    });
    res = await create({ reportType: "STR", transactionIds: ["r-tx-1", "missing-tx"] });
    expect(res.status).toBe(404);
    expect(res.body.error).toEqual({
      type: "NOT_FOUND",
      message: "Transaction not found",
      details: ["/transactionIds/1: Transaction not found"],
    });
    res = await create({ reportType: "STR", userId: "r-alice", merchantId: "no-merchant" });
    expect(res.body.error.details).toEqual(["/merchantId: Merchant not found"]);
    res = await create({ reportType: "STR", userId: "r-alice", templateId: "no-template" });
    expect(res.body.error.details).toEqual(["/templateId: Report template not found"]);
  });

  it("treats another client's ids as unknown", async () => {
    const res = await create({ reportType: "STR", userId: "r-alice", transactionIds: ["r-tx-1"] }, otherKey);
    expect(res.status).toBe(404);
    expect(res.body.error.details).toEqual([
      "/userId: User not found",
      "/transactionIds/0: Transaction not found",
    ]);
  });

  it("stores inline user, merchant and transactions, then populates from them", async () => {
    const res = await create({
      reportType: "STR",
      user: {
        id: "r-inline-user",
        timestamp: now(),
        firstName: "Ines",
        lastName: "Moraes",
        address: { postalCode: "01000", country: "BR", city: "São Paulo", street: "Rua A 1" },
      },
      merchant: { id: "r-inline-merchant", name: "Inline Merchant", timestamp: now(), country: "BR" },
      transactions: [
        tx("r-inline-tx", {
          userId: undefined,
          user: { id: "r-inline-user", timestamp: now(), firstName: "Ines", lastName: "Moraes" },
          currencyCode: "BRL",
          paymentMethod: "bank",
          bank: { bankName: "Banco X", routingNumber: "001", accountNumber: "12345" },
          recipient: { firstName: "Rui", lastName: "Costa" },
        }),
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.populated).toEqual({ user: true, merchant: true, transactions: 1, indicators: 0 });
    expect(
      await prisma.user.findUnique({ where: { clientId_id: { clientId, id: "r-inline-user" } } }),
    ).not.toBeNull();
    expect(
      await prisma.merchant.findUnique({ where: { clientId_id: { clientId, id: "r-inline-merchant" } } }),
    ).not.toBeNull();
    const stored = await prisma.transaction.findUniqueOrThrow({
      where: { clientId_id: { clientId, id: "r-inline-tx" } },
    });
    expect(stored.riskLevel).toBeTruthy(); // screened like POST /v1/transaction
    const row = await prisma.report.findUniqueOrThrow({
      where: { clientId_id: { clientId, id: res.body.reportId } },
    });
    expect(row.transactionIds).toEqual(["r-inline-tx"]);
    const t = (row.content as any).transactions[0];
    expect(t.t_to.to_person).toMatchObject({ first_name: "Rui", last_name: "Costa" });
  });

  it("uses the template's title, reason, action and indicators unless the request gives them", async () => {
    const res = await create({
      reportType: "STR",
      userId: "r-alice",
      templateId: "tpl-structuring",
      action: "Own action",
    });
    expect(res.body.populated.indicators).toBe(2);
    const row = await prisma.report.findUniqueOrThrow({
      where: { clientId_id: { clientId, id: res.body.reportId } },
    });
    expect(row).toMatchObject({
      title: "Structuring",
      reason: "Many deposits under the threshold",
      action: "Own action",
      indicators: ["IND-1", "IND-2"],
    });
    expect((row.content as any).reason).toBe("Many deposits under the threshold");
  });

  it("answers the existing draft unchanged when an id is repeated", async () => {
    const first = await create({ id: "case-idem", reportType: "STR", userId: "r-alice", title: "First" });
    expect(first.status).toBe(200);
    expect(first.body.reportId).toBe("case-idem");
    const again = await create({
      id: "case-idem",
      reportType: "CTR",
      userId: "r-alice",
      title: "Second",
      transactionIds: ["r-tx-1"],
    });
    expect(again.status).toBe(200);
    const { timestamp: _a, ...a } = first.body;
    const { timestamp: _b, ...b } = again.body;
    expect(b).toEqual(a);
    const row = await prisma.report.findUniqueOrThrow({
      where: { clientId_id: { clientId, id: "case-idem" } },
    });
    expect(row).toMatchObject({ reportType: "STR", title: "First", transactionIds: [] });
    expect(await prisma.report.count({ where: { clientId, id: "case-idem" } })).toBe(1);
  });

  it("ignores a content field", async () => {
    const res = await create({
      reportType: "STR",
      userId: "r-alice",
      content: { rentity_id: "999", hacked: true },
    });
    expect(res.status).toBe(200);
    const row = await prisma.report.findUniqueOrThrow({
      where: { clientId_id: { clientId, id: res.body.reportId } },
    });
    expect((row.content as any).hacked).toBeUndefined();
    expect((row.content as any).rentity_id).toBeNull();
  });
});

describe("POST /v1/reports/bulk", () => {
  it("creates what it can and reports each failure by zero-based index", async () => {
    const res = await call(postBulk, {
      apiKey,
      body: {
        reports: [
          { id: "bulk-ok-1", reportType: "STR", userId: "r-alice" },
          { id: "bulk-no-subject", reportType: "STR", merchantId: "r-merchant" },
          { id: "bulk-missing-tx", reportType: "STR", transactionIds: ["nope"] },
          { reportType: "CTR", transactionIds: ["r-tx-1"] },
          "not an object",
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.summary).toEqual({ received: 5, created: 2, failed: 3 });
    expect(res.body.created.map((c: any) => c.index)).toEqual([0, 3]);
    expect(res.body.created[0]).toEqual({
      index: 0,
      id: "bulk-ok-1",
      reportId: "bulk-ok-1",
      status: "draft",
      populated: { user: true, merchant: false, transactions: 0, indicators: 0 },
      incomplete: expect.any(Array),
    });
    expect(res.body.created[1].id).toBe(res.body.created[1].reportId);
    expect(res.body.failed).toEqual([
      {
        index: 1,
        id: "bulk-no-subject",
        error: {
          type: "VALIDATION_ERROR",
          message: "Request validation failed",
          details: [`/: ${SUBJECT_REQUIRED}`],
        },
      },
      {
        index: 2,
        id: "bulk-missing-tx",
        error: {
          type: "NOT_FOUND",
          message: "Transaction not found",
          details: ["/transactionIds/0: Transaction not found"],
        },
      },
      { index: 4, id: null, error: expect.objectContaining({ type: "VALIDATION_ERROR" }) },
    ]);
    expect(typeof res.body.timestamp).toBe("number");
    expect(
      await prisma.report.findUnique({ where: { clientId_id: { clientId, id: "bulk-missing-tx" } } }),
    ).toBeNull();
  });

  it("refuses more than 100 reports with a 400 and creates none", async () => {
    const count = await prisma.report.count({ where: { clientId } });
    const reports = Array.from({ length: 101 }, (_, i) => ({
      id: `over-${i}`,
      reportType: "STR",
      userId: "r-alice",
    }));
    const res = await call(postBulk, { apiKey, body: { reports } });
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe("VALIDATION_ERROR");
    expect(res.body.error.details[0]).toMatch(/^\/reports: /);
    expect(await prisma.report.count({ where: { clientId } })).toBe(count);
  });

  it("refuses a missing reports array", async () => {
    const res = await call(postBulk, { apiKey, body: {} });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual(["/reports: Required"]);
  });
});

describe("GET /v1/reports/{reportId}", () => {
  let reportId: string;
  beforeAll(async () => {
    reportId = (
      await create({
        reportType: "STR",
        userId: "r-alice",
        transactionIds: ["r-tx-1"],
        reportNumber: "CASE-READ",
        caseOpenedAt: 1_700_000_000_000,
      })
    ).body.reportId;
  });

  it("answers the report fields without content or audit by default", async () => {
    const res = await read(reportId);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: reportId,
      status: "draft",
      reportType: "STR",
      reportNumber: "CASE-READ",
      fiuReferenceNumber: null,
      userId: "r-alice",
      transactionIds: ["r-tx-1"],
      caseOpenedAt: 1_700_000_000_000,
      submittedAt: null,
      createdById: "api",
      timestamp: expect.any(Number),
    });
    expect(res.body).not.toHaveProperty("content");
    expect(res.body).not.toHaveProperty("audit");
  });

  it("includes content and audit on request, every read appended to the trail", async () => {
    const before = await prisma.reportAuditEntry.count({ where: { clientId, reportId } });
    const res = await read(reportId, { include: "content,audit" });
    expect(res.status).toBe(200);
    expect(res.body.content.transactions[0].transactionnumber).toBe("r-tx-1");
    expect(res.body.audit.length).toBe(before + 1);
    expect(res.body.audit[0]).toMatchObject({ seq: 1, action: "created", actorType: "api", actorId: "api" });
    expect(res.body.audit.at(-1)).toMatchObject({
      action: "read",
      actorType: "api",
      changes: { via: "api", include: ["content", "audit"] },
    });
    await read(reportId, { include: "content" });
    expect(await prisma.reportAuditEntry.count({ where: { clientId, reportId } })).toBe(before + 2);
  });

  it("rejects unknown include values", async () => {
    const res = await read(reportId, { include: "content,secrets" });
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe("VALIDATION_ERROR");
  });

  it("answers 404 for unknown ids and for another client's report", async () => {
    for (const res of [await read("nope"), await read(reportId, {}, otherKey)]) {
      expect(res.status).toBe(404);
      expect(res.body.error).toEqual({
        type: "NOT_FOUND",
        message: "Report not found",
        details: ["/reportId: Report not found"],
      });
    }
  });
});

describe("GET /v1/reports", () => {
  let listKey: string;
  let listClientId: string;
  const ids: string[] = [];
  beforeAll(async () => {
    ({ apiKey: listKey, clientId: listClientId } = await createTestClient({
      features: ["reporting"],
      name: "Lister",
    }));
    await call(postUser, { apiKey: listKey, body: { id: "l-user", timestamp: now() } });
    await call(postUser, { apiKey: listKey, body: { id: "l-user-2", timestamp: now() } });
    await call(postTransaction, { apiKey: listKey, body: tx("l-tx", { userId: "l-user" }) });
    const bodies = [
      { reportType: "STR", userId: "l-user", reportNumber: "N-0" },
      { reportType: "SAR", userId: "l-user-2", reportNumber: "N-1" },
      { reportType: "CTR", transactionIds: ["l-tx"], reportNumber: "N-2" },
      { reportType: "STR", userId: "l-user-2", reportNumber: "N-3" },
      { reportType: "IFTR", userId: "l-user", reportNumber: "N-4" },
    ];
    for (const body of bodies) {
      ids.push((await create(body, listKey)).body.reportId);
      await new Promise((r) => setTimeout(r, 5));
    }
    await prisma.report.update({
      where: { clientId_id: { clientId: listClientId, id: ids[3]! } },
      data: { status: "submitted" },
    });
  });

  it("lists newest first with the item fields, total and pages", async () => {
    const res = await list({}, listKey);
    expect(res.status).toBe(200);
    expect(res.body.reports.map((r: any) => r.id)).toEqual([...ids].reverse());
    expect(res.body).toMatchObject({ total: 5, page: 1, pages: 1, timestamp: expect.any(Number) });
    expect(Object.keys(res.body.reports[0]).sort()).toEqual(
      [
        "createdAt",
        "fiuReferenceNumber",
        "id",
        "reportNumber",
        "reportType",
        "status",
        "submittedAt",
        "title",
        "transactionCount",
        "updatedAt",
        "userId",
      ].sort(),
    );
    expect(res.body.reports.find((r: any) => r.reportNumber === "N-2")).toMatchObject({
      transactionCount: 1,
      userId: "l-user",
    });
  });

  it("pages with page and limit", async () => {
    const p1 = await list({ limit: "2" }, listKey);
    const p3 = await list({ limit: "2", page: "3" }, listKey);
    expect(p1.body).toMatchObject({ total: 5, page: 1, pages: 3 });
    expect(p1.body.reports.map((r: any) => r.id)).toEqual([ids[4], ids[3]]);
    expect(p3.body.reports.map((r: any) => r.id)).toEqual([ids[0]]);
    expect((await list({ limit: "2", page: "4" }, listKey)).body.reports).toEqual([]);
  });

  it("filters by status, reportType, userId, transactionId, reportNumber and creation range", async () => {
    const numbers = async (q: Record<string, string>) =>
      (await list(q, listKey)).body.reports.map((r: any) => r.reportNumber);
    expect(await numbers({ status: "submitted" })).toEqual(["N-3"]);
    expect(await numbers({ status: "draft,submitted" })).toHaveLength(5);
    expect(await numbers({ reportType: "STR,SAR" })).toEqual(["N-3", "N-1", "N-0"]);
    expect(await numbers({ userId: "l-user" })).toEqual(["N-4", "N-2", "N-0"]);
    expect(await numbers({ transactionId: "l-tx" })).toEqual(["N-2"]);
    expect(await numbers({ reportNumber: "N-1" })).toEqual(["N-1"]);
    const rows = await prisma.report.findMany({
      where: { clientId: listClientId },
      orderBy: { createdAt: "asc" },
    });
    const from = String(rows[1]!.createdAt.getTime());
    const to = String(rows[3]!.createdAt.getTime());
    expect(await numbers({ createdFrom: from, createdTo: to })).toEqual(["N-3", "N-2", "N-1"]);
  });

  it("rejects an over-limit, malformed or invalid filter with 400", async () => {
    const bad: Record<string, string>[] = [
      { limit: "101" },
      { limit: "abc" },
      { limit: "0" },
      { page: "0" },
      { page: "x" },
      { createdFrom: "yesterday" },
      { status: "open" },
      { reportType: "ABC" },
    ];
    for (const q of bad) {
      const res = await list(q, listKey);
      expect(res.status, JSON.stringify(q)).toBe(400);
      expect(res.body.error.type).toBe("VALIDATION_ERROR");
    }
    expect((await list({ limit: "100" }, listKey)).status).toBe(200);
  });

  it("never lists another client's reports", async () => {
    const res = await list({ reportNumber: "N-1" });
    expect(res.body.total).toBe(0);
  });
});
