import { z } from "zod";
import { RISK_LEVELS_MOST_SEVERE_FIRST } from "@/lib/risk/risk-levels";
import { ZQueryInteger } from "@/lib/users/schemas";

// Cases (docs/decisions.md §12): the API's read-only views and the dashboard's actions, validated once here.

export const CASE_STATUSES = ["open", "in_review", "escalated", "closed"] as const;
export type TCaseStatus = (typeof CASE_STATUSES)[number];
export const CASE_OUTCOMES = ["false_positive", "confirmed_fraud", "reported", "other"] as const;
export type TCaseOutcome = (typeof CASE_OUTCOMES)[number];
/** Outcomes a reviewer picks; `reported` is set only by filing the case's report. */
export const CLOSE_OUTCOMES = ["false_positive", "confirmed_fraud", "other"] as const;
export const CASE_PRIORITIES = RISK_LEVELS_MOST_SEVERE_FIRST;
export type TCasePriority = (typeof CASE_PRIORITIES)[number];

export const CASES_PAGE_DEFAULT = 20;
export const CASES_PAGE_MAX = 100;
export const CASE_INBOX_MAX = 100;

const NOTE_MAX = 5000;
/** A verdict, an escalation, a closure and a block carry the reviewer's reasons. */
export const ZRequiredNote = z
  .string({ error: "A note is required" })
  .trim()
  .min(1, "A note is required")
  .max(NOTE_MAX);

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

// ---------------------------------------------------------------- GET /v1/cases

export const ZListCasesQuery = z.object({
  status: commaList(CASE_STATUSES).optional(),
  page: ZQueryInteger({ min: 1 }).optional(),
  limit: ZQueryInteger({ min: 1, max: CASES_PAGE_MAX }).optional(),
});
export type TListCasesQuery = z.infer<typeof ZListCasesQuery>;

export const ZCaseSubject = z.object({ type: z.enum(["user", "merchant", "transaction"]), id: z.string() });

export const ZCaseResponse = z.object({
  id: z.string(),
  subject: ZCaseSubject,
  status: z.enum(CASE_STATUSES),
  priority: z.string(),
  assignee: z.object({ id: z.string(), name: z.string().nullable(), email: z.string() }).nullable(),
  dueAt: z.number(),
  outcome: z.enum(CASE_OUTCOMES).nullable(),
  note: z.string().nullable(),
  reportId: z.string().nullable(),
  alertCount: z.number(),
  alertIds: z.array(z.string()),
  createdAt: z.number(),
  updatedAt: z.number(),
  closedAt: z.number().nullable(),
});
export type TCaseResponse = z.infer<typeof ZCaseResponse>;

export const ZGetCaseResponse = ZCaseResponse.extend({ timestamp: z.number() });

export const ZListCasesResponse = z.object({
  cases: z.array(ZCaseResponse),
  total: z.number(),
  page: z.number(),
  pages: z.number(),
  timestamp: z.number(),
});

// ---------------------------------------------------------------- dashboard

const emptyAsUndefined = (v: unknown) => (v === "" || v === null ? undefined : v);

export const ZCaseInboxQuery = z.object({
  /** `active` (default): every status but closed. */
  status: z.preprocess(emptyAsUndefined, z.enum([...CASE_STATUSES, "active", "all"]).default("active")),
  priority: z.preprocess(emptyAsUndefined, z.enum(CASE_PRIORITIES).optional()),
  /** `me`, `unassigned`, or a dashboard user id. */
  assignee: z.preprocess(emptyAsUndefined, z.string().max(200).optional()),
  overdue: z.preprocess(emptyAsUndefined, z.enum(["true", "false"]).optional()),
  ruleId: z.preprocess(emptyAsUndefined, z.string().max(200).optional()),
  userId: z.preprocess(emptyAsUndefined, z.string().max(200).optional()),
  cursor: z.preprocess(emptyAsUndefined, z.string().max(300).optional()),
  limit: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(CASE_INBOX_MAX).default(50)),
});
export type TCaseInboxQuery = z.infer<typeof ZCaseInboxQuery>;

export const ZAssignCase = z.object({
  /** A dashboard user id of the client, or null to unassign. */
  assigneeId: z.string().min(1).nullable(),
});
export type TAssignCase = z.infer<typeof ZAssignCase>;

export const ZCaseComment = z.object({ comment: ZRequiredNote });
export type TCaseComment = z.infer<typeof ZCaseComment>;

export const ZReviewCaseAlerts = z.object({
  status: z.enum(["cleared", "confirmed"]),
  /** The alerts to settle; absent: every open alert of the case. */
  alertIds: z.array(z.string().min(1)).min(1).max(1000).optional(),
  note: ZRequiredNote,
});
export type TReviewCaseAlerts = z.infer<typeof ZReviewCaseAlerts>;

export const ZCloseCase = z.object({ outcome: z.enum(CLOSE_OUTCOMES), note: ZRequiredNote });
export type TCloseCase = z.infer<typeof ZCloseCase>;

export const ZEscalateCase = z.object({
  note: ZRequiredNote,
  reportType: z.enum(["STR", "SAR"]).default("STR"),
});
export type TEscalateCase = z.infer<typeof ZEscalateCase>;

export const ZBlockCaseUser = z.object({ note: ZRequiredNote, closeAlerts: z.boolean().default(true) });
export type TBlockCaseUser = z.infer<typeof ZBlockCaseUser>;

export const ZBulkCases = z.discriminatedUnion("action", [
  z.object({
    action: z.literal("assign"),
    caseIds: z.array(z.string().min(1)).min(1).max(CASE_INBOX_MAX),
    assigneeId: z.string().min(1).nullable(),
  }),
  z.object({
    action: z.literal("close_false_positive"),
    caseIds: z.array(z.string().min(1)).min(1).max(CASE_INBOX_MAX),
    note: ZRequiredNote,
  }),
]);
export type TBulkCases = z.infer<typeof ZBulkCases>;

export const ZCaseSla = z.object(
  Object.fromEntries(
    CASE_PRIORITIES.map((p) => [
      p,
      z
        .number()
        .positive()
        .max(24 * 365),
    ]),
  ) as Record<TCasePriority, z.ZodNumber>,
);
export type TCaseSla = z.infer<typeof ZCaseSla>;
