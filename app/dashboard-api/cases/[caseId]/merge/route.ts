// POST /dashboard-api/cases/:caseId/merge: gather linked people's open cases into this case, with a note
import { z } from "zod";
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { mergeLinkedCases } from "@/lib/cases/merge-linked-cases";

export const POST = dashboardRoute<{ caseId: string }>("cases.work", async ({ user, params, body }) =>
  mergeLinkedCases({
    clientId: user.clientId,
    caseId: params.caseId,
    input: await body(z.record(z.string(), z.unknown())),
    actor: user,
  }),
);
