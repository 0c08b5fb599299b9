// POST /dashboard-api/cases/:caseId/comment: a reviewer's comment (required text)
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { z } from "zod";
import { commentCase } from "@/lib/cases/comment-case";

export const POST = dashboardRoute<{ caseId: string }>("cases.work", async ({ user, params, body: read }) => {
  const body = await read(z.record(z.string(), z.unknown()));
  return commentCase({
    clientId: user.clientId,
    caseId: params.caseId,
    actor: user,
    comment: body.comment,
  });
});
