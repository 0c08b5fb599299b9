// GET /v1/reports: list the client's reports, newest first, filtered and paged
import { methods, withClient } from "@/lib/http/with-client";
import { listReports } from "@/lib/reports/list-reports";
import { ZListReportsQuery } from "@/lib/reports/schemas";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withClient(
    async ({ client, query }) => ({
      ...(await listReports({ clientId: client.id, query: query(ZListReportsQuery) })),
      timestamp: Date.now(),
    }),
    { feature: "reporting", featureMessage: "Reporting is not enabled for this client" },
  ),
});
