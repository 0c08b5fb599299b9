// GET /v1/paymentInstrument/{id}: the stored assessment of a payment instrument
import { prisma } from "@/lib/db";
import { notFound, validationError } from "@/lib/http/errors";
import { methods, withClient } from "@/lib/http/with-client";
import { getPaymentInstrumentAssessment } from "@/lib/screening/screen-payment-instrument";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withClient<{ id: string }>(async ({ client, params }) => {
    if (!params.id.trim()) throw validationError(["/id: Expected non-empty string"]);
    const stored = await getPaymentInstrumentAssessment(prisma, { clientId: client.id, id: params.id });
    if (!stored) throw notFound("/id", "Payment instrument not found");
    return stored;
  }),
});
