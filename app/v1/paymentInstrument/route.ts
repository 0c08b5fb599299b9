// PUT /v1/paymentInstrument: link or unlink a payment instrument and screen it
import { validationError } from "@/lib/http/errors";
import { methods, withClient } from "@/lib/http/with-client";
import { ZPaymentInstrumentRequest } from "@/lib/payment-instruments/schemas";
import { screenPaymentInstrument } from "@/lib/screening/screen-payment-instrument";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  PUT: withClient(async ({ client, body }) =>
    screenPaymentInstrument({ client, body: await body(ZPaymentInstrumentRequest) }),
  ),
  // GET without an id: the contract's "400 id missing or empty".
  GET: withClient(async () => {
    throw validationError(["/id: Required"]);
  }),
});
