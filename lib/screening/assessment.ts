import { createHash } from "node:crypto";
import { z } from "zod";

// The RiskAssessment of the contract, shared by every screening endpoint.

export const RISK_LEVELS = ["low", "medium_low", "medium", "high", "very_high", "n/a"] as const;

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

/** Stable JSON (sorted keys) so that the same body always hashes the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) out += (i ? "," : "") + canonicalJson(value[i]);
    return `${out}]`;
  }
  if (value && typeof value === "object") {
    const object = value as Record<string, unknown>;
    // sort() without a comparator orders by UTF-16 code units, as `<` does
    const keys = Object.keys(object).sort();
    let out = "";
    for (const key of keys) {
      const v = object[key];
      if (v !== undefined) out += `${out ? "," : ""}${JSON.stringify(key)}:${canonicalJson(v)}`;
    }
    return `{${out}}`;
  }
  return JSON.stringify(value) ?? "null";
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
