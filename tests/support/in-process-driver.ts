import { POST as serveHandler } from "@/app/api/inngest/route";
import { INNGEST_APP_ID } from "@/inngest/client";
import { eventsWithoutFunctions, functions, functionVersions } from "@/inngest/index";
import { startJobDriver, type TJobDriver, type TJobDriverOptions } from "@/lib/jobs/driver";
import { describeFunctions } from "@/lib/jobs/function-table";
import { servingSigningKey } from "@/lib/jobs/signing-key";

/**
 * A job driver of this build's functions that calls the serve handler in process, signed, as `npm start`
 * does: the serve URL points at a port nothing listens on, so every step goes through `invoke`.
 */
export function startInProcessDriver(options: Partial<TJobDriverOptions> = {}): TJobDriver {
  return startJobDriver({
    mode: "embedded",
    functions: describeFunctions(INNGEST_APP_ID, functions, functionVersions),
    eventsWithoutFunctions,
    serveUrl: "http://127.0.0.1:9/api/inngest",
    invoke: (request) => serveHandler(request as never, undefined),
    signingKey: servingSigningKey()!,
    ...options,
  });
}
