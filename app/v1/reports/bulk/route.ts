// POST /v1/reports/bulk: create up to 100 draft reports, each succeeding or failing on its own
import { bulkItemError } from "@/lib/http/errors";
import { chargeRateLimit, methods, withClient } from "@/lib/http/with-client";
import { bulkCreateReports } from "@/lib/reports/bulk-create-reports";
import { REPORT_TRANSACTIONS_MAX, ZBulkReports } from "@/lib/reports/schemas";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withClient(
    async ({ client, body }) => {
      const { reports } = await body(ZBulkReports);
      // one token per report beyond the request's own, and one per inline transaction (each is screened)
      const screenings = reports.reduce<number>((n, r) => {
        const inline = (r as { transactions?: unknown } | null)?.transactions;
        return n + (Array.isArray(inline) ? Math.min(inline.length, REPORT_TRANSACTIONS_MAX) : 0);
      }, 0);
      await chargeRateLimit(client, Math.max(0, reports.length - 1) + screenings);
      return bulkCreateReports({ client, reports, itemError: bulkItemError });
    },
    { feature: "reporting", featureMessage: "Reporting is not enabled for this client" },
  ),
});
