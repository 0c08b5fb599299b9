// The one role gate, server side: dashboardRoute, server actions and pages check a named permission.
import { redirect } from "next/navigation";
import { can, type TPermission } from "@/lib/auth/permission-table";
import { currentUser, ForbiddenError, type TSessionUser } from "@/lib/auth/session";

export { can, PERMISSIONS, type TPermission } from "@/lib/auth/permission-table";

/** For server actions and dashboard API routes: the signed-in user, or ForbiddenError (401 / 403). */
export async function requirePermission(permission: TPermission): Promise<TSessionUser> {
  const user = await currentUser();
  if (!user) throw new ForbiddenError("Not signed in");
  if (user.mustChangePassword && permission !== "account.password")
    throw new ForbiddenError("Set a new password first: an admin reset yours");
  if (!can(user.role, permission)) throw new ForbiddenError();
  return user;
}

/** For pages: redirects to /login when signed out, to the forbidden page when the role lacks the permission. */
export async function requirePagePermission(permission: TPermission): Promise<TSessionUser> {
  const user = await currentUser();
  if (!user) redirect("/login");
  if (user.mustChangePassword) redirect("/password");
  if (!can(user.role, permission)) redirect("/dashboard/forbidden");
  return user;
}
