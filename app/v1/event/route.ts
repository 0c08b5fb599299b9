// POST /v1/event: store a non-monetary event and screen it when event rules are enabled. The
// screening's read travels with the API key read (withClientRead): two statements in all.
import { ZEvent } from "@/lib/events/schemas";
import { methods, withClientRead } from "@/lib/http/with-client";
import { plannedEventRead, screenEvent } from "@/lib/screening/screen-event";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withClientRead(ZEvent, plannedEventRead, ({ client, body, prefetched }) =>
    screenEvent({ client, body, prefetched }),
  ),
});
