import { z } from "zod";
import { RULE_RISK_LEVELS } from "@/lib/risk/risk-levels";

export const RULE_SUBJECTS = ["transaction", "user", "merchant", "paymentInstrument", "event"] as const;
export type TRuleSubject = (typeof RULE_SUBJECTS)[number];

export const RULE_STATUSES = ["active", "inactive", "draft", "archived", "muted", "dry-run"] as const;
export type TRuleStatus = (typeof RULE_STATUSES)[number];
/** Statuses whose rules are evaluated on every screening (only `active` decides the answer). */
export const EVALUATED_STATUSES: readonly TRuleStatus[] = ["active", "dry-run", "muted"];

export const AGGREGATE_FUNCTIONS = ["count", "sum", "avg", "min", "max", "countDistinct"] as const;
export type TAggregateFunction = (typeof AGGREGATE_FUNCTIONS)[number];

export const AGGREGATE_OVER = ["transaction", "event"] as const;
export type TAggregateOver = (typeof AGGREGATE_OVER)[number];

const WINDOW_UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const WINDOW_PATTERN = /^([1-9]\d{0,5})(s|m|h|d)$/;
// Longer windows would scan more history than the indexes are sized for.
const MAX_WINDOW_MS = 400 * 86_400_000;

export function windowMs(window: string): number {
  const match = WINDOW_PATTERN.exec(window);
  if (!match) throw new Error(`Invalid window '${window}'`);
  return Number(match[1]) * WINDOW_UNIT_MS[match[2] as keyof typeof WINDOW_UNIT_MS];
}

const FIELD_PATH = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;
const ZFieldPath = z
  .string()
  .regex(FIELD_PATH, "Expected a field path such as userId or card.cardFingerprint");

export const ZAggregateDefinition = z
  .object({
    function: z.enum(AGGREGATE_FUNCTIONS),
    over: z.enum(AGGREGATE_OVER),
    groupBy: ZFieldPath,
    window: z
      .string()
      .regex(WINDOW_PATTERN, "Expected a duration such as 10m, 24h or 30d")
      .refine((w) => windowMs(w) <= MAX_WINDOW_MS, "Window may not exceed 400d"),
    field: ZFieldPath.optional(),
    where: z.string().min(1).optional(),
  })
  .superRefine((agg, ctx) => {
    if (agg.function !== "count" && !agg.field) {
      ctx.addIssue({ code: "custom", path: ["field"], message: `Required for function ${agg.function}` });
    }
  });
export type TAggregateDefinition = z.infer<typeof ZAggregateDefinition>;

const AGGREGATE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const ZRuleDefinition = z.object({
  id: z.string().min(1).max(200),
  name: z.string().min(1).max(500),
  subject: z.enum(RULE_SUBJECTS),
  status: z.enum(RULE_STATUSES),
  riskLevel: z.enum(RULE_RISK_LEVELS),
  recommendedAction: z.string().min(1),
  reason: z.string().max(2000),
  condition: z.string().min(1).max(10_000),
  aggregates: z
    .record(z.string().regex(AGGREGATE_NAME, "Aggregate names must be identifiers"), ZAggregateDefinition)
    .optional(),
});
export type TRuleDefinition = z.infer<typeof ZRuleDefinition>;

/** The import file: a bare array of rules or `{ rules: [...] }`. */
export const ZRuleImport = z.union([z.array(z.unknown()), z.object({ rules: z.array(z.unknown()) })]);
