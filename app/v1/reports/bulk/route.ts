// POST /v1/reports/bulk: create up to 100 draft reports, each succeeding or failing on its own
import { methods, withClient } from "@/lib/http/with-client";
import { bulkCreateReports } from "@/lib/reports/bulk-create-reports";
import { ZBulkReports } from "@/lib/reports/schemas";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withClient(
    async ({ client, body }) => {
      const { reports } = await body(ZBulkReports);
      return bulkCreateReports({ client, reports });
    },
    { feature: "reporting", featureMessage: "Reporting is not enabled for this client" },
  ),
});
