// POST /v1/user: create or update a user by id (no screening)
import { methods, withClient } from "@/lib/http/with-client";
import { saveUser } from "@/lib/users/save-user";
import { ZUser } from "@/lib/users/schemas";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withClient(async ({ client, body }) => {
    const user = await body(ZUser);
    const { id } = await saveUser({ clientId: client.id, user });
    return { id, status: "success" };
  }),
});
