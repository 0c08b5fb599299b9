// GET /dashboard-api/lists/:listId/entries?q=&page=&limit=: search entries; POST: add one
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { addListEntry, searchListEntries } from "@/lib/lists/manage-lists";
import { ZListEntryInput, ZListEntrySearch } from "@/lib/lists/schemas";

export const GET = dashboardRoute<{ listId: string }>("lists.manage", async ({ user, params, query }) =>
  searchListEntries({ clientId: user.clientId, listId: params.listId, ...query(ZListEntrySearch) }),
);

export const POST = dashboardRoute<{ listId: string }>("lists.manage", async ({ user, params, body }) =>
  addListEntry({
    clientId: user.clientId,
    listId: params.listId,
    actor: user,
    input: await body(ZListEntryInput),
  }),
);
