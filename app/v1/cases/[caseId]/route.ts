// GET /v1/cases/{caseId}: one of the client's cases with its alertIds
import { getCase } from "@/lib/cases/list-cases";
import { methods, withClient } from "@/lib/http/with-client";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withClient<{ caseId: string }>(async ({ client, params }) => ({
    ...(await getCase({ clientId: client.id, caseId: params.caseId })),
    timestamp: Date.now(),
  })),
});
