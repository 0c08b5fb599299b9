// POST /v1/event: store a non-monetary event and screen it when event rules are enabled
import { ZEvent } from "@/lib/events/schemas";
import { methods, withClient } from "@/lib/http/with-client";
import { screenEvent } from "@/lib/screening/screen-event";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withClient(async ({ client, body }) => screenEvent({ client, body: await body(ZEvent) })),
});
