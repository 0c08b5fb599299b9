// POST /dashboard-api/lists/:listId/upload: add (or with replace, swap) entries from a CSV
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { uploadListCsv } from "@/lib/lists/manage-lists";
import { ZListUpload } from "@/lib/lists/schemas";

export const POST = dashboardRoute<{ listId: string }>("lists.manage", async ({ user, params, body }) =>
  uploadListCsv({
    clientId: user.clientId,
    listId: params.listId,
    actor: user,
    ...(await body(ZListUpload)),
  }),
);
