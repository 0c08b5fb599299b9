import type { TMerchant } from "@/lib/merchants/schemas";

// jsonb does not keep key order, so bodies are compared with sorted keys.
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}

/** The body as stored for an existing merchant: its `timestamp` stays the first one received. */
export function keepFirstTimestamp(merchant: TMerchant, createdAt: Date): TMerchant {
  return { ...merchant, timestamp: createdAt.getTime() };
}
