import type { TMerchant } from "@/lib/merchants/schemas";

/** The body as stored for an existing merchant: its `timestamp` stays the first one received. */
export function keepFirstTimestamp(merchant: TMerchant, createdAt: Date): TMerchant {
  return { ...merchant, timestamp: createdAt.getTime() };
}
