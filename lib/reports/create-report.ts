import { randomUUID } from "node:crypto";
import type { TClientContext } from "@/lib/clients/client-context";
import { prisma, TX_OPTIONS, type Tx } from "@/lib/db";
import { Prisma, type Report } from "@/lib/generated/prisma/client";
import { DomainError } from "@/lib/errors/domain-error";
import type { TMerchant } from "@/lib/merchants/schemas";
import { saveMerchant } from "@/lib/merchants/save-merchant";
import { saveUser } from "@/lib/users/save-user";
import { appendAudit, type TActor } from "@/lib/reports/audit";
import { activeSchema, incompleteFor } from "@/lib/reports/goaml-xml";
import { populateReport } from "@/lib/reports/populate-report";
import { withoutStaleCodes } from "@/lib/reports/profile-codes";
import { readReportProfile, type TCreateReport, type TCreateReportResponse } from "@/lib/reports/schemas";
import { populatedOf } from "@/lib/reports/serialize-report";
import { screenTransaction } from "@/lib/screening/screen-transaction";
import type { TTransaction } from "@/lib/transactions/schemas";
import type { TUser } from "@/lib/users/schemas";

const API_ACTOR: TActor = { type: "api", id: "api" };

export function createdResponse(row: Report): TCreateReportResponse {
  return {
    reportId: row.id,
    // A repeated id answers the report as it is now (draft unless an officer has moved it on).
    status: row.status as TCreateReportResponse["status"],
    reportType: row.reportType as TCreateReportResponse["reportType"],
    ...(row.reportNumber !== null ? { reportNumber: row.reportNumber } : {}),
    fiuReferenceNumber: row.fiuReferenceNumber,
    createdAt: row.createdAt.getTime(),
    requiresReview: true,
    populated: populatedOf(row),
    incomplete: row.incomplete,
    timestamp: Date.now(),
  };
}

/** 404 naming every referenced id that the client does not have (another client's ids included). */
async function checkReferences(clientId: string, body: TCreateReport): Promise<void> {
  const missing: { path: string; message: string }[] = [];
  if (
    body.userId &&
    !(await prisma.user.findUnique({
      where: { clientId_id: { clientId, id: body.userId } },
      select: { id: true },
    }))
  )
    missing.push({ path: "/userId", message: "User not found" });
  if (body.transactionIds?.length) {
    const found = await prisma.transaction.findMany({
      where: { clientId, id: { in: body.transactionIds } },
      select: { id: true },
    });
    const ids = new Set(found.map((t) => t.id));
    body.transactionIds.forEach((id, i) => {
      if (!ids.has(id)) missing.push({ path: `/transactionIds/${i}`, message: "Transaction not found" });
    });
  }
  if (
    body.merchantId &&
    !(await prisma.merchant.findUnique({
      where: { clientId_id: { clientId, id: body.merchantId } },
      select: { id: true },
    }))
  )
    missing.push({ path: "/merchantId", message: "Merchant not found" });
  if (
    body.templateId &&
    !(await prisma.reportTemplate.findUnique({
      where: { clientId_id: { clientId, id: body.templateId } },
      select: { id: true },
    }))
  )
    missing.push({ path: "/templateId", message: "Report template not found" });
  const first = missing[0];
  if (first)
    throw new DomainError(
      "not_found",
      first.message,
      missing.map((m) => `${m.path}: ${m.message}`),
    );
}

async function storeInlineParties(clientId: string, body: TCreateReport): Promise<void> {
  if (body.user) await saveUser({ clientId, user: body.user, source: "report" });
  if (body.merchant) await saveMerchant({ clientId, merchant: body.merchant });
}

/** Writes a draft populated from stored entities; also used by a case escalation (with its officer as actor). */
export async function insertReport(
  tx: Tx,
  {
    clientId,
    id,
    body,
    now,
    actor = API_ACTOR,
  }: { clientId: string; id: string; body: TCreateReport; now: Date; actor?: TActor },
): Promise<Report> {
  const client = await tx.client.findUniqueOrThrow({
    where: { id: clientId },
    select: { reportingProfile: true },
  });
  // A lookup code the active schema no longer lists (the FIU's schema changed) is not copied into the draft.
  const stored = readReportProfile(client.reportingProfile);
  const { schema } = activeSchema(stored);
  const profile = withoutStaleCodes(stored, schema);
  const template = body.templateId
    ? await tx.reportTemplate.findUnique({ where: { clientId_id: { clientId, id: body.templateId } } })
    : null;

  const transactionIds = body.transactionIds ?? body.transactions?.map((t) => t.id) ?? [];
  const txRows = transactionIds.length
    ? await tx.transaction.findMany({ where: { clientId, id: { in: transactionIds } } })
    : [];
  const byId = new Map(txRows.map((t) => [t.id, t.data as unknown as TTransaction]));
  const transactions = transactionIds.map((tid) => byId.get(tid)).filter((t): t is TTransaction => !!t);

  const userIds = new Set<string>();
  const subjectUserId = body.userId ?? body.user?.id;
  if (subjectUserId) userIds.add(subjectUserId);
  for (const t of txRows) if (t.userId) userIds.add(t.userId);
  const userRows = userIds.size
    ? await tx.user.findMany({
        where: { clientId, id: { in: [...userIds] } },
        select: { id: true, data: true },
      })
    : [];
  const users = new Map(userRows.map((u) => [u.id, u.data as Partial<TUser>]));

  const merchantIds = new Set<string>();
  const reportMerchantId = body.merchantId ?? body.merchant?.id;
  if (reportMerchantId) merchantIds.add(reportMerchantId);
  for (const t of txRows) if (t.merchantId) merchantIds.add(t.merchantId);
  const merchantRows = merchantIds.size
    ? await tx.merchant.findMany({
        where: { clientId, id: { in: [...merchantIds] } },
        select: { id: true, data: true },
      })
    : [];
  const merchants = new Map(merchantRows.map((m) => [m.id, m.data as unknown as TMerchant]));

  // The subject: the named user, else the first transaction's user that is on record.
  const userId =
    subjectUserId ?? txRows.map((t) => t.userId).find((u): u is string => !!u && users.has(u)) ?? null;
  const merchantId =
    reportMerchantId ??
    txRows.map((t) => t.merchantId).find((m): m is string => !!m && merchants.has(m)) ??
    null;

  const indicators = body.indicators ?? template?.indicators ?? [];
  const reason = body.reason ?? template?.reason ?? null;
  const action = body.action ?? template?.action ?? null;
  const content = populateReport({
    profile,
    report: {
      id,
      reportType: body.reportType,
      reportNumber: body.reportNumber,
      reason,
      action,
      indicators,
      reportDate: new Date(body.timestamp ?? now.getTime()),
    },
    user: userId ? (users.get(userId) ?? null) : null,
    users,
    merchant: reportMerchantId ? (merchants.get(reportMerchantId) ?? null) : null,
    merchants,
    transactions,
  });

  const row = await tx.report.create({
    data: {
      clientId,
      id,
      status: "draft",
      reportType: body.reportType,
      reportNumber: body.reportNumber ?? null,
      title: body.title ?? template?.title ?? null,
      description: body.description ?? null,
      reason,
      action,
      templateId: body.templateId ?? null,
      indicators,
      userId,
      transactionIds,
      merchantId,
      caseOpenedAt: body.caseOpenedAt !== undefined ? new Date(body.caseOpenedAt) : null,
      createdAt: now,
      updatedAt: now,
      createdById: actor.id ?? "api",
      content: content as Prisma.InputJsonValue,
      incomplete: incompleteFor(content, schema),
    },
  });
  await appendAudit(tx, {
    clientId,
    reportId: id,
    actor,
    action: "created",
    changes: {
      status: "draft",
      reportType: row.reportType,
      reportNumber: row.reportNumber,
      userId,
      transactionIds,
      merchantId,
      templateId: row.templateId,
      indicators,
      inline: { user: !!body.user, merchant: !!body.merchant, transactions: body.transactions?.length ?? 0 },
    },
    at: now,
  });
  return row;
}

/**
 * POST /v1/report: creates a draft report populated from stored or inline entities.
 *
 * - A known `id` answers the existing report unchanged (idempotent retry), whatever the rest of the body.
 * - Referenced ids must exist for the client (404 naming each missing path).
 * - Inline transactions are screened and stored exactly as POST /v1/transaction would (assessment, alerts,
 *   webhooks) before the draft is written, so the report refers to ordinary stored transactions. The inline
 *   user and merchant are stored first (as POST /v1/user would, source "report"), before the inline
 *   transactions are screened and the draft is written.
 */
export async function createReport({
  client,
  body,
}: {
  client: TClientContext;
  body: TCreateReport;
}): Promise<TCreateReportResponse> {
  const clientId = client.id;
  const id = body.id ?? `rpt_${randomUUID()}`;
  const find = () => prisma.report.findUnique({ where: { clientId_id: { clientId, id } } });
  if (body.id) {
    const existing = await find();
    if (existing) return createdResponse(existing);
  }
  await checkReferences(clientId, body);
  // Inline transactions are screened against the stored user and merchant, so those are stored first.
  await storeInlineParties(clientId, body);
  for (const transaction of body.transactions ?? []) await screenTransaction({ client, body: transaction });
  try {
    const row = await prisma.$transaction(
      (tx) => insertReport(tx, { clientId, id, body, now: new Date() }),
      TX_OPTIONS,
    );
    return createdResponse(row);
  } catch (err) {
    // The same id sent twice at once: the second answers the first's draft.
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") {
      const existing = await find();
      if (existing) return createdResponse(existing);
    }
    throw err;
  }
}
