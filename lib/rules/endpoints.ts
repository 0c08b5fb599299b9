import { z } from "zod";
import { registerEndpoint } from "@/lib/openapi/registry";
import { ZRuleListItem } from "@/lib/rules/list-rules";

registerEndpoint({
  method: "get",
  path: "/v1/rules",
  tag: "Rules",
  summary: "List the client's rules",
  description: "Every rule with its status; a bare JSON array, no pagination.",
  response: z.array(ZRuleListItem),
});
