import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { call } from "@/tests/factories";

const V1 = path.resolve("app/v1");

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return routeFiles(full);
    return name === "route.ts" ? [full] : [];
  });
}

function apiPath(file: string): string {
  const rel = path.relative(path.resolve("app"), path.dirname(file));
  return (
    "/" +
    rel
      .split(path.sep)
      .map((seg) => seg.replace(/^\[(\w+)\]$/, "{$1}"))
      .join("/")
  );
}

describe("OpenAPI document", () => {
  const doc = buildOpenApiDocument() as { paths: Record<string, Record<string, unknown>> };

  it("is a valid OpenAPI 3.1 document", async () => {
    const validator = new Validator();
    const result = await validator.validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("documents every implemented /v1 route and method", async () => {
    const implemented: string[] = [];
    for (const file of routeFiles(V1)) {
      const route = apiPath(file);
      if (route.includes("[...") || route === "/v1/openapi.json") continue;
      const mod = (await import(file)) as Record<string, unknown>;
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
        const fn = mod[method] as ((...args: never[]) => unknown) & { methodNotAllowed?: boolean };
        if (typeof fn === "function" && fn.methodNotAllowed !== true)
          implemented.push(`${method.toLowerCase()} ${route}`);
      }
    }
    expect(implemented.length).toBeGreaterThan(0);
    const documented = Object.entries(doc.paths).flatMap(([p, ops]) =>
      Object.keys(ops).map((m) => `${m} ${p}`),
    );
    expect(documented.sort()).toEqual(expect.arrayContaining(implemented.sort()));
    // nothing documented that does not exist
    expect(implemented.sort()).toEqual(expect.arrayContaining(documented.sort()));
  });

  it("is served without a key at /v1/openapi.json", async () => {
    const route = await import("@/app/v1/openapi.json/route");
    const res = await call(route.GET as never, { path: "/v1/openapi.json" });
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe("3.1.0");
    expect(res.body.paths["/v1/rules"].get).toBeDefined();
  });
});
