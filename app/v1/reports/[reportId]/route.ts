// GET /v1/reports/{reportId}: read a report (optionally its content and audit trail); the read is audited
import { methods, withClient } from "@/lib/http/with-client";
import { getReport } from "@/lib/reports/get-report";
import { ZGetReportQuery } from "@/lib/reports/schemas";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withClient<{ reportId: string }>(
    async ({ client, params, query }) => {
      const { include } = query(ZGetReportQuery);
      const report = await getReport({
        clientId: client.id,
        reportId: params.reportId,
        include,
        actor: { type: "api", id: client.apiKeyId },
      });
      return { ...report, timestamp: Date.now() };
    },
    { feature: "reporting", featureMessage: "Reporting is not enabled for this client" },
  ),
});
