// The wrapper of every dashboard API route: forged-request refusal, the named permission's check, JSON
// parsing, one error body.
import type { z } from "zod";
import { requirePermission, type TPermission } from "@/lib/auth/permissions";
import { ForbiddenError, type TSessionUser } from "@/lib/auth/session";
import { DashboardUserError } from "@/lib/dashboard-users/create-dashboard-user";
import { env } from "@/lib/env";
import { ApiError, errorResponse, validationError } from "@/lib/http/errors";
import { readJson, toErrorResponse } from "@/lib/http/with-client";
import { parseWith } from "@/lib/validation/parse";
import { RuleImportError } from "@/lib/rules/validate-rule";
import { bodyTypeRefusal, crossOriginRefusal } from "@/lib/http/same-origin";

type TRouteContext = { params: Promise<Record<string, string | string[]>> };

export type TDashboardContext<P> = {
  user: TSessionUser;
  request: Request;
  params: P;
  body: <S extends z.ZodType>(schema: S) => Promise<z.infer<S>>;
  query: <S extends z.ZodType>(schema: S) => z.infer<S>;
};

/** Maps the errors admin domain functions throw to the contract's error body. */
export function adminErrorResponse(err: unknown): Response {
  if (err instanceof ForbiddenError) {
    const signedOut = err.message === "Not signed in";
    return errorResponse(
      new ApiError(signedOut ? 401 : 403, signedOut ? "UNAUTHORIZED" : "FORBIDDEN", err.message),
    );
  }
  if (err instanceof RuleImportError) return errorResponse(validationError(err.errors.map((e) => e.message)));
  if (err instanceof DashboardUserError) return errorResponse(validationError([`/: ${err.message}`]));
  return toErrorResponse(err);
}

type TDashboardRouteOptions = {
  /** Body media types a state-changing call may send; JSON unless the route takes a file as its body. */
  bodyTypes?: readonly string[];
};

export function dashboardRoute<P = Record<string, string>>(
  permission: TPermission,
  handler: (ctx: TDashboardContext<P>) => Promise<unknown>,
  options: TDashboardRouteOptions = {},
) {
  const bodyTypes = options.bodyTypes ?? ["application/json"];
  const handle = async (req: Request, route: TRouteContext): Promise<Response> => {
    try {
      // Before the session is read: a forged request learns nothing, not even whether a session exists.
      const forged = crossOriginRefusal(req, env.NEXTAUTH_URL);
      if (forged) return errorResponse(forged);
      const user = await requirePermission(permission);
      const wrongType = bodyTypeRefusal(req, bodyTypes);
      if (wrongType) return errorResponse(wrongType);
      const url = new URL(req.url);
      const result = await handler({
        user,
        request: req,
        params: (await route.params) as P,
        // Same body limit and JSON handling as the /v1 API.
        body: async (schema) => parseWith(schema, await readJson(req)),
        query: (schema) => parseWith(schema, Object.fromEntries(url.searchParams)),
      });
      return result instanceof Response ? result : Response.json(result ?? { status: "success" });
    } catch (err) {
      return adminErrorResponse(err);
    }
  };
  // The permission travels with the handler so a test can check every route against the table.
  return Object.assign(handle, { permission, bodyTypes });
}
