import { requirePagePermission } from "@/lib/auth/permissions";
import type { ReactNode } from "react";
import { Nav } from "@/components/nav";
import { Providers } from "@/components/providers";
import { prisma } from "@/lib/db";

export const dynamic = "force-dynamic";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const user = await requirePagePermission("dashboard.read");
  const client = await prisma.client.findUnique({ where: { id: user.clientId }, select: { name: true } });
  return (
    <Providers>
      <div className="flex min-h-screen">
        <Nav role={user.role} name={user.name} email={user.email} clientName={client?.name ?? ""} />
        <main className="min-w-0 flex-1 p-6">{children}</main>
      </div>
    </Providers>
  );
}
