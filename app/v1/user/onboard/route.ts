// POST /v1/user/onboard: create or update a user and screen it
import { methods, withClient } from "@/lib/http/with-client";
import { screenUser } from "@/lib/screening/screen-user";
import { ZUser } from "@/lib/users/schemas";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withClient(async ({ client, body }) => screenUser({ client, body: await body(ZUser) })),
});
