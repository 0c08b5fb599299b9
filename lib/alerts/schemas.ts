import { z } from "zod";
import { RISK_LEVELS } from "@/lib/risk/risk-levels";
import { isStorableDate, STORABLE_DATE_MESSAGE } from "@/lib/validation/timestamps";

// Alert review on the dashboard (docs/decisions.md §7: alert.reviewed status values).

export const ALERT_STATUSES = ["open", "cleared", "confirmed", "escalated"] as const;
export type TAlertStatus = (typeof ALERT_STATUSES)[number];
export const ZAlertStatus = z.enum(ALERT_STATUSES);

export const REVIEW_STATUSES = ["cleared", "confirmed", "escalated"] as const;
export const ZReviewStatus = z.enum(REVIEW_STATUSES);
export type TReviewStatus = z.infer<typeof ZReviewStatus>;

/** A reviewer's verdict on one alert (the route's body). */
export const ZReviewAlert = z.object({
  status: ZReviewStatus,
  // a verdict and an escalation carry the reviewer's reasons
  feedback: z.string({ error: "A note is required" }).trim().min(1, "A note is required").max(5000),
});
export type TReviewAlert = z.infer<typeof ZReviewAlert>;

export const ZAssignAlert = z.object({ alertId: z.string().min(1), assign: z.boolean().default(true) });

export const ALERTS_MAX_LIMIT = 100;

/** Epoch ms or an ISO date (the date inputs of the filter form), as a Date; a bare day ending `to` means its end. */
export function ZDateParam(edge: "start" | "end") {
  return z
    .string()
    .trim()
    .min(1)
    .transform((v, ctx) => {
      const day = /^\d{4}-\d{2}-\d{2}$/.test(v);
      const d = /^\d+$/.test(v) ? new Date(Number(v)) : new Date(day ? `${v}T00:00:00.000Z` : v);
      if (!isStorableDate(d)) {
        ctx.addIssue({ code: "custom", message: STORABLE_DATE_MESSAGE });
        return z.NEVER;
      }
      return day && edge === "end" ? new Date(d.getTime() + 86_400_000 - 1) : d;
    });
}

const emptyAsUndefined = (v: unknown) => (v === "" || v === null ? undefined : v);

export const ZListAlertsQuery = z.object({
  userId: z.preprocess(emptyAsUndefined, z.string().max(200).optional()),
  status: z.preprocess(emptyAsUndefined, z.union([ZAlertStatus, z.literal("all")]).default("open")),
  level: z.preprocess(emptyAsUndefined, z.enum(RISK_LEVELS).optional()),
  ruleId: z.preprocess(emptyAsUndefined, z.string().max(200).optional()),
  assigned: z.preprocess(emptyAsUndefined, z.enum(["me", "unassigned"]).optional()),
  from: z.preprocess(emptyAsUndefined, ZDateParam("start").optional()),
  to: z.preprocess(emptyAsUndefined, ZDateParam("end").optional()),
  cursor: z.preprocess(emptyAsUndefined, z.string().max(200).optional()),
  limit: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(ALERTS_MAX_LIMIT).default(50)),
});
export type TListAlertsQuery = z.infer<typeof ZListAlertsQuery>;
