// POST /v1/user/device: record a device of a user
import { methods, withClient } from "@/lib/http/with-client";
import { addUserDevice } from "@/lib/users/add-user-device";
import { ZAddUserDevice } from "@/lib/users/schemas";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withClient(async ({ client, body }) => {
    const input = await body(ZAddUserDevice);
    const { id } = await addUserDevice({ clientId: client.id, ...input });
    return { id, status: "success" };
  }),
});
