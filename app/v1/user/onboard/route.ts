// POST /v1/user/onboard: create or update a user and screen it. The screening's read travels with the
// API key read (withClientRead): two statements in all.
import { methods, withClientRead } from "@/lib/http/with-client";
import { plannedUserRead, screenUser } from "@/lib/screening/screen-user";
import { ZUser } from "@/lib/users/schemas";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withClientRead(ZUser, plannedUserRead, ({ client, body, prefetched }) =>
    screenUser({ client, body, prefetched }),
  ),
});
