import { Inngest } from "inngest";
import { env } from "@/lib/env";
import { inngestLogger } from "@/lib/jobs/inngest-logger";
import { inngestDevMode, servingSigningKey } from "@/lib/jobs/signing-key";

export const INNGEST_APP_ID = "risk-screening";

// Never dev mode unless INNGEST_DEV asks for it: dev mode skips request signatures, and without an
// Inngest server the serve endpoint must still refuse anything the in-process driver did not sign.
export const inngest = new Inngest({
  id: INNGEST_APP_ID,
  eventKey: env.INNGEST_EVENT_KEY,
  baseUrl: env.INNGEST_BASE_URL,
  signingKey: servingSigningKey(),
  isDev: inngestDevMode(),
  logger: inngestLogger,
  internalLogger: inngestLogger,
});
