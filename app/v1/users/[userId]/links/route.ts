// GET /v1/users/{userId}/links: the users who share an identifier with this one, to depth 2
import { methods, withClient } from "@/lib/http/with-client";
import { getUserLinks } from "@/lib/links/get-user-links";
import { ZUserLinksQuery } from "@/lib/links/schemas";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withClient<{ userId: string }>(async ({ client, params, query }) => {
    const { depth, kinds } = query(ZUserLinksQuery);
    return getUserLinks({ clientId: client.id, userId: params.userId, depth, kinds });
  }),
});
