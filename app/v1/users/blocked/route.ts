// GET /v1/users/blocked: the client's blocked users, by id, with cursor pagination
import { methods, withClient } from "@/lib/http/with-client";
import { listBlockedUsers } from "@/lib/users/list-blocked-users";
import { ZBlockedUsersQuery } from "@/lib/users/schemas";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withClient(async ({ client, query }) => {
    const { start, limit } = query(ZBlockedUsersQuery);
    const page = await listBlockedUsers({ clientId: client.id, start: start || undefined, limit });
    return { users: page.users, total: page.total, cursor: page.cursor };
  }),
});
