import { createHash } from "node:crypto";
import { z } from "zod";
import { canonicalJson } from "@/lib/json/canonical-json";
import { RISK_LEVELS } from "@/lib/risk/risk-levels";

// The RiskAssessment of the contract, shared by every screening endpoint.

export const ZTriggeredRule = z.object({
  id: z.string(),
  name: z.string(),
  level: z.enum(RISK_LEVELS),
  reason: z.string(),
  recommendedAction: z.string(),
});
export type TTriggered = z.infer<typeof ZTriggeredRule>;

export const ZRiskAssessment = z.object({
  id: z.string(),
  riskLevel: z.enum(RISK_LEVELS),
  recommendedAction: z.string(),
  triggered: z.array(ZTriggeredRule),
  timestamp: z.number(),
});
export type TRiskAssessment = z.infer<typeof ZRiskAssessment>;

export function assessment(
  id: string,
  result: {
    riskLevel: string;
    recommendedAction: string;
    triggered: readonly TTriggered[] | readonly unknown[];
  },
  at: Date | number,
): TRiskAssessment {
  return {
    id,
    riskLevel: result.riskLevel as TRiskAssessment["riskLevel"],
    recommendedAction: result.recommendedAction,
    triggered: result.triggered.map((t) => {
      const r = t as TTriggered;
      return {
        id: r.id,
        name: r.name,
        level: r.level,
        reason: r.reason,
        recommendedAction: r.recommendedAction,
      };
    }),
    timestamp: typeof at === "number" ? at : at.getTime(),
  };
}

export function bodyHash(value: unknown): string {
  return createHash("sha256").update(canonicalJson(value)).digest("hex");
}

/** A stored user or merchant as the rules see it: the request's field names plus status and createdAt. */
export function storedEntity(
  row: { data: unknown; status: string | null; createdAt: Date } | null,
): Record<string, unknown> | undefined {
  if (!row) return undefined;
  const data = (row.data && typeof row.data === "object" ? row.data : {}) as Record<string, unknown>;
  return { ...data, status: row.status, createdAt: row.createdAt.getTime() };
}

/**
 * A stored merchant as the rules see it: like storedEntity, and `timestamp` is the first one ever
 * received for the id (interface, Merchant rule 2), whatever later requests sent.
 */
export function storedMerchant(
  row: { data: unknown; status: string | null; createdAt: Date } | null,
): Record<string, unknown> | undefined {
  const entity = storedEntity(row);
  return entity && { ...entity, timestamp: row!.createdAt.getTime() };
}
