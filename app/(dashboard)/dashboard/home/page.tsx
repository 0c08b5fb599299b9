// Where signing in lands: each role's own work (a reviewer's case inbox, an officer's reports, an admin's overview).
import { redirect } from "next/navigation";
import { requirePagePermission } from "@/lib/auth/permissions";
import { homePath } from "@/lib/auth/permission-table";

export const dynamic = "force-dynamic";

export default async function HomePage() {
  const user = await requirePagePermission("dashboard.read");
  redirect(homePath(user.role));
}
