// POST /dashboard-api/cases/:caseId/merge: gather linked people's open cases into this case, with a note
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { mergeLinkedCases } from "@/lib/cases/merge-linked-cases";
import { ZMergeCases } from "@/lib/links/network-schemas";

export const POST = dashboardRoute<{ caseId: string }>("cases.work", async ({ user, params, body }) =>
  mergeLinkedCases({
    clientId: user.clientId,
    caseId: params.caseId,
    input: await body(ZMergeCases),
    actor: user,
  }),
);
