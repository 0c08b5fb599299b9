import { z } from "zod";
import { MAX_EPOCH_MS } from "@/lib/validation/timestamps";
import {
  ZBaseCurrency,
  ZFanOutCap,
  ZFeature,
  ZRecommendedAction,
  ZReportingProfile,
  ZRetentionMonths,
} from "@/lib/clients/schemas";
import { ZDashboardRole } from "@/lib/dashboard-users/create-dashboard-user";
import { RULE_STATUSES } from "@/lib/rules/schemas";
import { ZWebhookEventType } from "@/lib/webhooks/schemas";
import { ZDateParam } from "@/lib/alerts/schemas";

// Definitions are validated by the rule engine itself (validateRuleDefinition), so the editor sees
// exactly the messages an import would give; here only the envelope is checked.
export const ZSaveRule = z.object({ definition: z.record(z.string(), z.unknown()) });
export type TSaveRule = z.infer<typeof ZSaveRule>;

export const ZRuleStatusChange = z.object({ status: z.enum(RULE_STATUSES) });

export const ZCreateApiKeyInput = z.object({ name: z.string().trim().max(100).optional() });

export const WEBHOOK_SECRET_MIN_LENGTH = 32;

export const ZCreateWebhookInput = z.object({
  url: z.string().trim().min(1),
  events: z.array(ZWebhookEventType).min(1),
  // blank: a secret of 32 random bytes is generated and shown once. One the admin types must be at least
  // WEBHOOK_SECRET_MIN_LENGTH characters (the /v1 API takes any secret: the contract fixes that).
  secret: z
    .string()
    .max(512)
    .refine((s) => s.trim().length === 0 || s.trim().length >= WEBHOOK_SECRET_MIN_LENGTH, {
      message: `A signing secret you choose must have at least ${WEBHOOK_SECRET_MIN_LENGTH} characters; leave it blank to have one generated`,
    })
    .optional(),
});
export type TCreateWebhookInput = z.infer<typeof ZCreateWebhookInput>;

export const ZDeliveryQuery = z.object({
  // failing: failed for good, or failed at least once and waiting for its next attempt
  status: z.enum(["failed", "pending", "delivered", "failing"]).optional(),
  subscriptionId: z.string().min(1).optional(),
  before: z.string().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type TDeliveryQuery = z.infer<typeof ZDeliveryQuery>;

export const ZUpdateSettings = z.object({
  features: z.array(ZFeature).optional(),
  actions: z.array(ZRecommendedAction).min(1, "Enable at least one action").optional(),
  reportingProfile: ZReportingProfile.optional(),
  baseCurrency: ZBaseCurrency.optional(),
  linkFanOutCap: ZFanOutCap.optional(),
  retentionMonths: ZRetentionMonths.optional(),
});
export type TUpdateSettings = z.infer<typeof ZUpdateSettings>;

export const ZCreateTeamMember = z.object({
  email: z.string().trim().toLowerCase().email(),
  name: z.string().trim().max(200).optional(),
  role: ZDashboardRole,
  password: z.string().min(8, "Password must have at least 8 characters"),
});
export type TCreateTeamMember = z.infer<typeof ZCreateTeamMember>;

export const ZBacktestStart = z.object({
  ruleId: z.string().min(1),
  /** The candidate version (default: the rule's newest); compared with the live version. */
  version: z.coerce.number().int().min(1).optional(),
  from: z.coerce.number().int().min(0).max(MAX_EPOCH_MS),
  to: z.coerce.number().int().min(0).max(MAX_EPOCH_MS),
});
export type TBacktestStart = z.infer<typeof ZBacktestStart>;

export const ZBacktestContinue = z.object({
  stop: z.boolean().optional(),
  batchSize: z.coerce.number().int().min(1).max(500).default(200),
});

export const ZRulePublish = z.object({
  version: z.coerce.number().int().min(1),
  status: z.enum(["active", "dry-run", "muted"]),
  // what changed and why, as every reviewer action carries a note
  note: z.string({ error: "A change note is required" }).trim().min(1, "A change note is required").max(2000),
});

const blank = (v: unknown) => (v === "" || v === null ? undefined : v);

/** The audit trail's filters: who (a dashboard user id), what (an action code), which object, when. */
export const ZAuditQuery = z.object({
  actorId: z.preprocess(blank, z.string().max(256).optional()),
  action: z.preprocess(blank, z.string().max(100).optional()),
  entityType: z.preprocess(blank, z.string().max(100).optional()),
  entityId: z.preprocess(blank, z.string().trim().max(256).optional()),
  from: z.preprocess(blank, ZDateParam("start").optional()),
  to: z.preprocess(blank, ZDateParam("end").optional()),
  cursor: z.preprocess(blank, z.string().max(200).optional()),
  limit: z.preprocess(blank, z.coerce.number().int().min(1).max(100).default(50)),
});
export type TAuditQuery = z.infer<typeof ZAuditQuery>;

export const ZChangeMemberRole = z.object({ role: ZDashboardRole });

export const ZRedeliverFailed = z.object({ subscriptionId: z.string().min(1).max(256) });

export const ZSetOwnPassword = z
  .object({
    password: z.string().min(8, "Password must have at least 8 characters").max(200),
    confirm: z.string(),
  })
  .refine((v) => v.password === v.confirm, { path: ["confirm"], message: "The two passwords differ" });

/** Stale goAML codes mapped to codes of the active schema (`to: null` drops the code). */
export const ZMapGoamlCodes = z.object({
  mappings: z
    .array(
      z.object({
        list: z.string().trim().min(1).max(100),
        from: z.string().min(1).max(500),
        to: z.string().min(1).max(500).nullable(),
      }),
    )
    .min(1)
    .max(1000),
});
