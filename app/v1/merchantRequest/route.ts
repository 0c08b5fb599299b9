// POST /v1/merchantRequest: store and screen a merchant (business clients with merchantRiskAssessment).
// The screening's read travels with the API key read (withClientRead): two statements in all.
import { methods, withClientRead } from "@/lib/http/with-client";
import { ZMerchant } from "@/lib/merchants/schemas";
import { plannedMerchantRead, screenMerchant } from "@/lib/screening/screen-merchant";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withClientRead(
    ZMerchant,
    plannedMerchantRead,
    ({ client, body, prefetched }) => screenMerchant({ client, body, prefetched }),
    {
      businessOnly: true,
      feature: "merchantRiskAssessment",
      featureMessage: "Merchant risk assessment is not enabled for this client",
    },
  ),
});
