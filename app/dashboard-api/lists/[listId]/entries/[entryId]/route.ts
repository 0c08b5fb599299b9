// DELETE /dashboard-api/lists/:listId/entries/:entryId: remove an entry
import { ADMIN_ONLY } from "@/lib/admin/authorize";
import { dashboardRoute } from "@/lib/admin/dashboard-route";
import { removeListEntry } from "@/lib/lists/manage-lists";

export const DELETE = dashboardRoute<{ listId: string; entryId: string }>(
  ADMIN_ONLY,
  async ({ user, params }) =>
    removeListEntry({ clientId: user.clientId, listId: params.listId, entryId: params.entryId, actor: user }),
);
