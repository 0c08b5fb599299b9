// GET /v1/openapi.json: the API reference (public)
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { methods, withPublic } from "@/lib/http/with-client";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withPublic(async () => buildOpenApiDocument()),
});
