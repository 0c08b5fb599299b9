import { requirePagePermission } from "@/lib/auth/permissions";
import type { ReactNode } from "react";
import { Nav } from "@/components/nav";
import { Providers } from "@/components/providers";
import { getClientName } from "@/lib/clients/get-client-name";

export const dynamic = "force-dynamic";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const user = await requirePagePermission("dashboard.read");
  const clientName = await getClientName({ clientId: user.clientId });
  return (
    <Providers>
      <div className="flex min-h-screen">
        <Nav role={user.role} name={user.name} email={user.email} clientName={clientName} />
        <main className="min-w-0 flex-1 p-6">{children}</main>
      </div>
    </Providers>
  );
}
