// POST /v1/merchantRequest: store and screen a merchant (business clients with merchantRiskAssessment)
import { methods, withClient } from "@/lib/http/with-client";
import { ZMerchant } from "@/lib/merchants/schemas";
import { screenMerchant } from "@/lib/screening/screen-merchant";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withClient(async ({ client, body }) => screenMerchant({ client, body: await body(ZMerchant) }), {
    businessOnly: true,
    feature: "merchantRiskAssessment",
    featureMessage: "Merchant risk assessment is not enabled for this client",
  }),
});
