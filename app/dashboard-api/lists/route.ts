// GET /dashboard-api/lists: the client's lists with entry counts; POST: create a list
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { createList, listLists } from "@/lib/lists/manage-lists";
import { ZCreateList } from "@/lib/lists/schemas";

export const GET = dashboardRoute("lists.manage", async ({ user }) => listLists({ clientId: user.clientId }));

export const POST = dashboardRoute("lists.manage", async ({ user, body }) =>
  createList({ clientId: user.clientId, actor: user, input: await body(ZCreateList) }),
);
