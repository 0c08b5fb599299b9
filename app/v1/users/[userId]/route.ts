// GET /v1/users/{userId}: a user's record
import { methods, withClient } from "@/lib/http/with-client";
import { getUser } from "@/lib/users/get-user";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withClient<{ userId: string }>(async ({ client, params }) => ({
    user: await getUser({ clientId: client.id, userId: params.userId }),
  })),
});
