// POST /v1/report: create a draft regulatory report
import { methods, withClient } from "@/lib/http/with-client";
import { createReport } from "@/lib/reports/create-report";
import { ZCreateReport } from "@/lib/reports/schemas";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withClient(async ({ client, body }) => createReport({ client, body: await body(ZCreateReport) }), {
    feature: "reporting",
    featureMessage: "Reporting is not enabled for this client",
  }),
});
