// DELETE /dashboard-api/lists/:listId/entries/:entryId: remove an entry
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { removeListEntry } from "@/lib/lists/manage-lists";

export const DELETE = dashboardRoute<{ listId: string; entryId: string }>(
  "lists.manage",
  async ({ user, params }) =>
    removeListEntry({ clientId: user.clientId, listId: params.listId, entryId: params.entryId, actor: user }),
);
