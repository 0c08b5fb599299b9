// POST /dashboard-api/users/:userId/sanctions-false-matches: mark a sanctions hit as a false match (audited)
// DELETE ...?datasetId=&entityId=: withdraw the mark
import { z } from "zod";
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { markSanctionsFalseMatch, removeSanctionsFalseMatch } from "@/lib/sanctions/mark-false-match";

const ZEntity = z.object({ datasetId: z.string().min(1).max(64), entityId: z.string().min(1).max(200) });
const ZMark = ZEntity.extend({
  screenedName: z.string().max(500).default(""),
  note: z.string().max(2000).optional(),
});

export const POST = dashboardRoute<{ userId: string }>("users.review", async ({ user, params, body }) => {
  const input = await body(ZMark);
  return markSanctionsFalseMatch({ actor: user, userId: params.userId, ...input });
});

export const DELETE = dashboardRoute<{ userId: string }>("users.review", async ({ user, params, query }) => {
  const input = query(ZEntity);
  return removeSanctionsFalseMatch({ actor: user, userId: params.userId, ...input });
});
