import { z } from "zod";

// Every /v1 endpoint is declared here once, with the same zod schemas that validate its requests.
export type TEndpoint = {
  method: "get" | "post" | "put" | "patch" | "delete";
  path: string;
  summary: string;
  description?: string;
  tag: string;
  body?: z.ZodType;
  query?: z.ZodType;
  response?: z.ZodType;
  /** Status codes the endpoint answers besides 200, with their meaning. */
  errors?: Partial<Record<400 | 401 | 403 | 404 | 413 | 429 | 500, string>>;
  public?: boolean;
};

export const endpoints: TEndpoint[] = [];

export function registerEndpoint(endpoint: TEndpoint): void {
  const existing = endpoints.findIndex((e) => e.method === endpoint.method && e.path === endpoint.path);
  if (existing >= 0) endpoints[existing] = endpoint;
  else endpoints.push(endpoint);
}
