// GET /v1/rules: list the client's rules
import { methods, withClient } from "@/lib/http/with-client";
import { listRules } from "@/lib/rules/list-rules";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withClient(async ({ client }) => listRules({ clientId: client.id })),
});
