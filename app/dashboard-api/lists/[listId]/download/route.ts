// GET /dashboard-api/lists/:listId/download: the list as CSV (the import format)
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { downloadListCsv } from "@/lib/lists/manage-lists";

export const GET = dashboardRoute<{ listId: string }>("lists.manage", async ({ user, params }) => {
  const { fileName, csv } = await downloadListCsv({ clientId: user.clientId, listId: params.listId });
  return new Response(csv, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${fileName}"`,
    },
  });
});
