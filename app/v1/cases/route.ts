// GET /v1/cases: the client's cases, most recently created first, filtered by status and paged
import { listCases } from "@/lib/cases/list-cases";
import { ZListCasesQuery } from "@/lib/cases/schemas";
import { methods, withClient } from "@/lib/http/with-client";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withClient(async ({ client, query }) => ({
    ...(await listCases({ clientId: client.id, query: query(ZListCasesQuery) })),
    timestamp: Date.now(),
  })),
});
