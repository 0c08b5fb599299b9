import type { TMerchant } from "@/lib/merchants/schemas";
import { saveMerchantHot } from "@/lib/screening/hot/screen-party";

/** Creates or corrects a merchant record without screening it (demo data, a report's inline merchant). */
export async function saveMerchant(args: {
  clientId: string;
  merchant: TMerchant;
}): Promise<{ id: string; created: boolean }> {
  return saveMerchantHot(args);
}
