import type { ReportAuditEntry, Report } from "@/lib/generated/prisma/client";
import type {
  TAuditEntryOut,
  TPopulated,
  TReport,
  TReportListItem,
  TReportStatus,
  TReportType,
} from "@/lib/reports/schemas";

const ms = (d: Date | null): number | null => (d ? d.getTime() : null);

export function populatedOf(row: Report): TPopulated {
  return {
    user: row.userId !== null,
    merchant: row.merchantId !== null,
    transactions: row.transactionIds.length,
    indicators: row.indicators.length,
  };
}

export function serializeAuditEntry(e: ReportAuditEntry): TAuditEntryOut {
  return {
    seq: e.seq,
    at: e.at.getTime(),
    actorType: e.actorType,
    actorId: e.actorId,
    action: e.action,
    changes: e.changes ?? null,
    prevHash: e.prevHash,
    hash: e.hash,
  };
}

export function serializeReport(
  row: Report,
  extra: { content?: boolean; audit?: ReportAuditEntry[] } = {},
): TReport {
  return {
    id: row.id,
    status: row.status as TReportStatus,
    reportType: row.reportType as TReportType,
    reportNumber: row.reportNumber,
    fiuReferenceNumber: row.fiuReferenceNumber,
    title: row.title,
    description: row.description,
    reason: row.reason,
    action: row.action,
    templateId: row.templateId,
    indicators: row.indicators,
    userId: row.userId,
    transactionIds: row.transactionIds,
    merchantId: row.merchantId,
    caseOpenedAt: ms(row.caseOpenedAt),
    createdAt: row.createdAt.getTime(),
    updatedAt: row.updatedAt.getTime(),
    submittedAt: ms(row.submittedAt),
    createdById: row.createdById,
    updatedById: row.updatedById,
    submittedById: row.submittedById,
    // Drafts and reports sent back by the FIU wait on an officer.
    requiresReview: ["draft", "pending_review", "resubmission_required", "rejected", "amended"].includes(
      row.status,
    ),
    incomplete: row.incomplete,
    ...(extra.content ? { content: row.content as Record<string, unknown> } : {}),
    ...(extra.audit ? { audit: extra.audit.map(serializeAuditEntry) } : {}),
  };
}

export function serializeListItem(row: Report): TReportListItem {
  return {
    id: row.id,
    status: row.status as TReportStatus,
    reportType: row.reportType as TReportType,
    reportNumber: row.reportNumber,
    fiuReferenceNumber: row.fiuReferenceNumber,
    title: row.title,
    userId: row.userId,
    transactionCount: row.transactionIds.length,
    createdAt: row.createdAt.getTime(),
    updatedAt: row.updatedAt.getTime(),
    submittedAt: ms(row.submittedAt),
  };
}
