// A stand-in for the Next.js server process in the crash test: the serve route on node:http and the
// in-process job driver calling it. Run: node --import tsx tests/support/job-worker.ts <leaseMs>
import { POST, GET, PUT } from "@/app/api/inngest/route";
import { INNGEST_APP_ID } from "@/inngest/client";
import { eventsWithoutFunctions, functions, functionVersions } from "@/inngest/index";
import { startJobDriver } from "@/lib/jobs/driver";
import { describeFunctions } from "@/lib/jobs/function-table";
import { servingSigningKey } from "@/lib/jobs/signing-key";
import { startRouteServer } from "@/tests/support/serve-server";

const leaseMs = Number(process.argv[2] ?? "1500");
const serve = await startRouteServer({ POST: POST as never, GET: GET as never, PUT: PUT as never });
const driver = startJobDriver({
  mode: "embedded",
  functions: describeFunctions(INNGEST_APP_ID, functions, functionVersions),
  eventsWithoutFunctions,
  serveUrl: serve.url,
  signingKey: servingSigningKey()!,
  pollMs: 50,
  concurrency: 4,
  leaseMs,
  retryBaseMs: 100,
});
process.stdout.write(`READY ${serve.url}\n`);

process.on("SIGTERM", () => {
  void driver
    .stop()
    .then(() => serve.close())
    .then(() => process.exit(0));
});
