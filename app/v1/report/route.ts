// POST /v1/report: create a draft regulatory report
import { chargeRateLimit, methods, withClient } from "@/lib/http/with-client";
import { createReport } from "@/lib/reports/create-report";
import { ZCreateReport } from "@/lib/reports/schemas";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withClient(
    async ({ client, body }) => {
      const report = await body(ZCreateReport);
      // the request paid for itself; each inline transaction is a screening of its own
      await chargeRateLimit(client, report.transactions?.length ?? 0);
      return createReport({ client, body: report });
    },
    {
      feature: "reporting",
      featureMessage: "Reporting is not enabled for this client",
    },
  ),
});
