import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { prisma } from "@/lib/db";

// Shared by the fuzz, isolation and permission tests: every route found on disk, so routes added later are covered.

export type THandler = (
  req: Request,
  ctx: { params: Promise<Record<string, string | string[]>> },
) => Promise<Response>;
export type TMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
export type TRouteMethod = {
  /** "POST /v1/comments/user/{userId}" */
  key: string;
  method: TMethod;
  path: string;
  params: string[];
  handler: THandler;
};

const V1 = path.resolve("app/v1");
const METHODS: TMethod[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

function filesNamed(dir: string, fileName: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return filesNamed(full, fileName);
    return name === fileName ? [full] : [];
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

/** Every implemented method of every authenticated /v1 route (not the catch-all, not the public openapi.json). */
export async function discoverRoutes(): Promise<TRouteMethod[]> {
  const found: TRouteMethod[] = [];
  for (const file of filesNamed(V1, "route.ts").sort()) {
    const route = apiPath(file);
    if (route.includes("[...") || route === "/v1/openapi.json") continue;
    const mod = (await import(file)) as Record<string, unknown>;
    const params = [...route.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    for (const method of METHODS) {
      const fn = mod[method] as (THandler & { methodNotAllowed?: boolean }) | undefined;
      if (typeof fn === "function" && fn.methodNotAllowed !== true)
        found.push({ key: `${method} ${route}`, method, path: route, params, handler: fn });
    }
  }
  return found;
}

/** A dashboard route handler carries the permission dashboardRoute checks. */
export type TDashRoute = {
  key: string;
  method: TMethod;
  handler: THandler & { permission?: string };
  params: string[];
};

/** Every method of every dashboard API route (app/dashboard-api and the report download under app/api/reports). */
export async function discoverDashboardRoutes(): Promise<TDashRoute[]> {
  const files = [
    ...filesNamed(path.resolve("app/dashboard-api"), "route.ts"),
    ...filesNamed(path.resolve("app/api/reports"), "route.ts"),
  ];
  const found: TDashRoute[] = [];
  for (const file of files.sort()) {
    const route = apiPath(file);
    const mod = (await import(file)) as Record<string, unknown>;
    const params = [...route.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    for (const method of METHODS)
      if (typeof mod[method] === "function")
        found.push({
          key: `${method} ${route}`,
          method,
          handler: mod[method] as TDashRoute["handler"],
          params,
        });
  }
  return found;
}

export type TAction = (...args: unknown[]) => Promise<unknown>;

/** Every exported dashboard server action ("dashboard/reports/actions.ts#saveFields"). */
export async function discoverActions(): Promise<{ key: string; fn: TAction }[]> {
  const found: { key: string; fn: TAction }[] = [];
  for (const file of filesNamed(path.resolve("app"), "actions.ts").sort()) {
    const mod = (await import(file)) as Record<string, unknown>;
    const rel = path.relative(path.resolve("app"), file).split(path.sep).join("/");
    for (const [name, fn] of Object.entries(mod))
      if (typeof fn === "function") found.push({ key: `${rel}#${name}`, fn: fn as TAction });
  }
  return found;
}

let countSql: string | undefined;

/** Row counts of every application table, read in one statement (one snapshot). */
export async function countAllRows(): Promise<Record<string, number>> {
  if (!countSql) {
    const tables = await prisma.$queryRaw<{ name: string }[]>`
      SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> '_prisma_migrations'
      ORDER BY table_name`;
    // json_build_object takes at most 100 arguments: one object per 40 tables, merged.
    const parts: string[] = [];
    for (let i = 0; i < tables.length; i += 40)
      parts.push(
        `json_build_object(${tables
          .slice(i, i + 40)
          .map((t) => `'${t.name}', (SELECT count(*) FROM "${t.name}")`)
          .join(", ")})::jsonb`,
      );
    countSql = `SELECT (${parts.join(" || ")}) AS counts`;
  }
  const rows = await prisma.$queryRawUnsafe<{ counts: Record<string, number> }[]>(countSql);
  return rows[0]!.counts;
}

export const ERROR_TYPES: Record<number, string> = {
  400: "VALIDATION_ERROR",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_ALLOWED",
  413: "PAYLOAD_TOO_LARGE",
  429: "RATE_LIMITED",
};

/** The contract's error body for a non-2xx answer; a 400 carries `<pointer>: <message>` details. */
export function expectContractError(res: { status: number; body: unknown }, context: string): void {
  const body = res.body as {
    error?: { type?: unknown; message?: unknown; details?: unknown };
    timestamp?: unknown;
  };
  const where = `${context} → ${res.status} ${JSON.stringify(res.body)?.slice(0, 400)}`;
  expect(ERROR_TYPES[res.status], where).toBeDefined();
  expect(body && typeof body === "object", where).toBe(true);
  expect(Object.keys(body).sort(), where).toEqual(["error", "timestamp"]);
  expect(typeof body.timestamp, where).toBe("number");
  expect(body.error?.type, where).toBe(ERROR_TYPES[res.status]);
  expect(typeof body.error?.message === "string" && body.error.message.length > 0, where).toBe(true);
  const allowed = ["type", "message", "details"];
  expect(
    Object.keys(body.error ?? {}).every((k) => allowed.includes(k)),
    where,
  ).toBe(true);
  if (body.error?.details !== undefined || res.status === 400) {
    const details = body.error?.details;
    expect(Array.isArray(details) && details.length > 0, where).toBe(true);
    for (const d of details as unknown[])
      expect(typeof d === "string" && /^\/.*?: \S/s.test(d), where).toBe(true);
  }
}
