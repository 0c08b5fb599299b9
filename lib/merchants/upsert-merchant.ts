import { canonicalJson } from "@/lib/json/canonical-json";
import type { TMerchant } from "@/lib/merchants/schemas";

// lib/screening/hot still imports canonicalJson from here.
export { canonicalJson };

/** The body as stored for an existing merchant: its `timestamp` stays the first one received. */
export function keepFirstTimestamp(merchant: TMerchant, createdAt: Date): TMerchant {
  return { ...merchant, timestamp: createdAt.getTime() };
}
