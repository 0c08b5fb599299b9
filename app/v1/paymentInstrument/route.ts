// PUT /v1/paymentInstrument: link or unlink a payment instrument and screen it. The screening's read
// (when the rules or the wallet verification need one) travels with the API key read (withClientRead).
import { validationError } from "@/lib/http/errors";
import { methods, withClient, withClientRead } from "@/lib/http/with-client";
import { ZPaymentInstrumentRequest } from "@/lib/payment-instruments/schemas";
import { plannedInstrumentRead, screenPaymentInstrument } from "@/lib/screening/screen-payment-instrument";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  PUT: withClientRead(ZPaymentInstrumentRequest, plannedInstrumentRead, ({ client, body, prefetched }) =>
    screenPaymentInstrument({ client, body, prefetched }),
  ),
  // GET without an id: the contract's "400 id missing or empty".
  GET: withClient(async () => {
    throw validationError(["/id: Required"]);
  }),
});
