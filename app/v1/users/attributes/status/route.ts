// PUT /v1/users/attributes/status: set the status of every user sharing an attribute value
import { methods, withClient } from "@/lib/http/with-client";
import { ZAttributeStatus } from "@/lib/users/schemas";
import { setAttributeStatus } from "@/lib/users/set-attribute-status";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  PUT: withClient(async ({ client, body }) => {
    const input = await body(ZAttributeStatus);
    const { matchedUsers } = await setAttributeStatus({ clientId: client.id, input });
    return { status: "success", matchedUsers };
  }),
});
