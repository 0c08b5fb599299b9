import { z } from "zod";
import { ZId } from "@/lib/validation/ids";
import { MAX_EPOCH_MS, ZEpochMs } from "@/lib/validation/timestamps";
import { ZReportingProfile } from "@/lib/clients/schemas";
import { ZMerchant } from "@/lib/merchants/schemas";
import { ZTransaction } from "@/lib/transactions/schemas";
import { ZNonEmptyString, ZQueryInteger, ZUser } from "@/lib/users/schemas";

// Report requests and responses of interface.md "Reports" and "Report".

export const REPORT_TYPES = ["STR", "SAR", "CTR", "IFTR", "Other"] as const;
export const ZReportType = z.enum(REPORT_TYPES);
export type TReportType = z.infer<typeof ZReportType>;

export const REPORT_STATUSES = [
  "draft",
  "pending_review",
  "submitted",
  "rejected",
  "resubmission_required",
  "amended",
  "archived",
] as const;
export const ZReportStatus = z.enum(REPORT_STATUSES);
export type TReportStatus = z.infer<typeof ZReportStatus>;

export const SUBJECT_REQUIRED = "At least one of userId, user, transactionIds or transactions is required";

export const BULK_REPORTS_MAX = 100;
export const REPORTS_PAGE_MAX = 100;

/** Transactions one report may name (`transactions` inline, or `transactionIds`); each inline one is screened. */
export const REPORT_TRANSACTIONS_MAX = 100;

function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}

export const ZCreateReportFields = z.object({
  id: ZId.optional(),
  reportType: ZReportType,
  reportNumber: z.string().optional(),
  title: z.string().optional(),
  description: z.string().optional(),
  reason: z.string().optional(),
  action: z.string().optional(),
  templateId: ZId.optional(),
  indicators: z.array(ZNonEmptyString).optional(),
  caseOpenedAt: ZEpochMs.optional(),
  timestamp: ZEpochMs.optional(),
  userId: ZId.optional(),
  user: ZUser.optional(),
  transactionIds: z.array(ZNonEmptyString).max(REPORT_TRANSACTIONS_MAX).optional(),
  transactions: z.array(ZTransaction).max(REPORT_TRANSACTIONS_MAX).optional(),
  merchantId: ZId.optional(),
  merchant: ZMerchant.optional(),
});

/** POST /v1/report. `content` is not a field: unknown fields are stripped, so a sent content is ignored. */
export const ZCreateReport = ZCreateReportFields.superRefine((r, ctx) => {
  for (const [a, b] of [
    ["userId", "user"],
    ["transactionIds", "transactions"],
    ["merchantId", "merchant"],
  ] as const) {
    if (present(r[a]) && present(r[b]))
      ctx.addIssue({ code: "custom", path: [b], message: `${a} and ${b} are mutually exclusive` });
  }
  // A merchant is a counterparty, never the subject; empty id lists name no subject either.
  const subject =
    present(r.userId) || present(r.user) || !!r.transactionIds?.length || !!r.transactions?.length;
  if (!subject) ctx.addIssue({ code: "custom", path: [], message: SUBJECT_REQUIRED });
});
export type TCreateReport = z.infer<typeof ZCreateReport>;

export const ZPopulated = z.object({
  user: z.boolean(),
  merchant: z.boolean(),
  transactions: z.number(),
  indicators: z.number(),
});
export type TPopulated = z.infer<typeof ZPopulated>;

export const ZCreateReportResponse = z.object({
  reportId: z.string(),
  status: ZReportStatus,
  reportType: ZReportType,
  reportNumber: z.string().optional(),
  fiuReferenceNumber: z.string().nullable(),
  createdAt: z.number(),
  requiresReview: z.literal(true),
  populated: ZPopulated,
  incomplete: z.array(z.string()),
  timestamp: z.number(),
});
export type TCreateReportResponse = z.infer<typeof ZCreateReportResponse>;

// The envelope only: items are validated one by one so one bad item fails alone.
export const ZBulkReports = z.object({
  reports: z.array(z.unknown()).max(BULK_REPORTS_MAX),
});

const ZErrorObject = z.object({
  type: z.string(),
  message: z.string(),
  details: z.array(z.string()).optional(),
});

export const ZBulkReportsResponse = z.object({
  created: z.array(
    z.object({
      index: z.number(),
      id: z.string(),
      reportId: z.string(),
      status: ZReportStatus,
      populated: ZPopulated,
      incomplete: z.array(z.string()),
    }),
  ),
  failed: z.array(z.object({ index: z.number(), id: z.string().nullable(), error: ZErrorObject })),
  summary: z.object({ received: z.number(), created: z.number(), failed: z.number() }),
  timestamp: z.number(),
});

export const REPORT_INCLUDES = ["content", "audit"] as const;

function commaList<const T extends readonly [string, ...string[]]>(values: T) {
  return z
    .string()
    .transform((s) =>
      s
        .split(",")
        .map((v) => v.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(values)));
}

export const ZGetReportQuery = z.object({ include: commaList(REPORT_INCLUDES).optional() });

export const ZAuditEntry = z.object({
  seq: z.number(),
  at: z.number(),
  actorType: z.string(),
  actorId: z.string().nullable(),
  action: z.string(),
  changes: z.unknown().nullable(),
  prevHash: z.string(),
  hash: z.string(),
});
export type TAuditEntryOut = z.infer<typeof ZAuditEntry>;

export const ZReport = z.object({
  id: z.string(),
  status: ZReportStatus,
  reportType: ZReportType,
  reportNumber: z.string().nullable(),
  fiuReferenceNumber: z.string().nullable(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  reason: z.string().nullable(),
  action: z.string().nullable(),
  templateId: z.string().nullable(),
  indicators: z.array(z.string()),
  userId: z.string().nullable(),
  transactionIds: z.array(z.string()),
  merchantId: z.string().nullable(),
  caseOpenedAt: z.number().nullable(),
  createdAt: z.number(),
  updatedAt: z.number(),
  submittedAt: z.number().nullable(),
  createdById: z.string(),
  updatedById: z.string().nullable(),
  submittedById: z.string().nullable(),
  requiresReview: z.boolean(),
  incomplete: z.array(z.string()),
  content: z.record(z.string(), z.unknown()).optional(),
  audit: z.array(ZAuditEntry).optional(),
});
export type TReport = z.infer<typeof ZReport>;
export const ZReportResponse = ZReport.extend({ timestamp: z.number() });

const ZEpochQuery = ZQueryInteger({ min: 0, max: MAX_EPOCH_MS });

export const ZListReportsQuery = z.object({
  status: commaList(REPORT_STATUSES).optional(),
  reportType: commaList(REPORT_TYPES).optional(),
  userId: z.string().min(1).optional(),
  transactionId: z.string().min(1).optional(),
  reportNumber: z.string().min(1).optional(),
  createdFrom: ZEpochQuery.optional(),
  createdTo: ZEpochQuery.optional(),
  page: ZQueryInteger({ min: 1 }).optional(),
  limit: ZQueryInteger({ min: 1, max: REPORTS_PAGE_MAX }).optional(),
});
export type TListReportsQuery = z.infer<typeof ZListReportsQuery>;

export const ZReportListItem = z.object({
  id: z.string(),
  status: ZReportStatus,
  reportType: ZReportType,
  reportNumber: z.string().nullable(),
  fiuReferenceNumber: z.string().nullable(),
  title: z.string().nullable(),
  userId: z.string().nullable(),
  transactionCount: z.number(),
  createdAt: z.number(),
  updatedAt: z.number(),
  submittedAt: z.number().nullable(),
});
export type TReportListItem = z.infer<typeof ZReportListItem>;

export const ZListReportsResponse = z.object({
  reports: z.array(ZReportListItem),
  total: z.number(),
  page: z.number(),
  pages: z.number(),
  timestamp: z.number(),
});

/**
 * The client's reporting profile as the report domain reads it: the shared profile plus goAML lookup codes
 * (FIU-specific) and an optional FIU schema replacing the generic goAML XSD (a file path, or the XSD inline).
 */
// Every field of the client's reporting profile is optional here: a draft is populated from what exists.
export const ZReportProfile = ZReportingProfile.partial();
export type TReportProfile = z.infer<typeof ZReportProfile>;

export function readReportProfile(value: unknown): TReportProfile {
  const parsed = ZReportProfile.safeParse(value ?? {});
  return parsed.success ? parsed.data : {};
}
