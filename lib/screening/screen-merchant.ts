import type { TClientContext } from "@/lib/auth/api-keys";
import type { TMerchant } from "@/lib/merchants/schemas";
import type { TRiskAssessment } from "@/lib/screening/assessment";
import { screenMerchantHot } from "@/lib/screening/hot/screen-party";

/** Merchant risk assessment: stores the merchant record (with history) and screens it. */
/** The raw-SQL path (lib/screening/hot/screen-party.ts): one read, one write statement. */
export async function screenMerchant(args: {
  client: TClientContext;
  body: TMerchant;
}): Promise<TRiskAssessment> {
  return screenMerchantHot(args);
}
