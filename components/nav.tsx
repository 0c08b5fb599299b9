"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { signOut } from "next-auth/react";
import type { TDashboardRole } from "@/lib/dashboard-users/create-dashboard-user";

export type TNavItem = { href: string; label: string; roles?: TDashboardRole[] };

export const NAV_ITEMS: TNavItem[] = [
  { href: "/dashboard", label: "Overview" },
  { href: "/dashboard/alerts", label: "Alerts" },
  { href: "/dashboard/transactions", label: "Transactions" },
  { href: "/dashboard/users", label: "Users" },
  { href: "/dashboard/rules", label: "Rules" },
  { href: "/dashboard/reports", label: "Reports", roles: ["admin", "reporting_officer"] },
  { href: "/dashboard/webhooks", label: "Webhooks", roles: ["admin"] },
  { href: "/dashboard/api-keys", label: "API keys", roles: ["admin"] },
  { href: "/dashboard/settings", label: "Settings", roles: ["admin"] },
  { href: "/dashboard/team", label: "Team", roles: ["admin"] },
];

export function Nav({
  role,
  email,
  clientName,
}: {
  role: TDashboardRole;
  email: string;
  clientName: string;
}) {
  const pathname = usePathname();
  const items = NAV_ITEMS.filter((item) => !item.roles || item.roles.includes(role));
  return (
    <aside className="flex w-56 shrink-0 flex-col border-r border-slate-200 bg-white">
      <div className="border-b border-slate-200 px-4 py-4">
        <div className="text-sm font-semibold">Risk Screening</div>
        <div className="truncate text-xs text-slate-500">{clientName}</div>
      </div>
      <nav className="flex-1 space-y-0.5 p-2" aria-label="Main">
        {items.map((item) => {
          const active = item.href === "/dashboard" ? pathname === item.href : pathname.startsWith(item.href);
          return (
            <Link
              key={item.href}
              href={item.href}
              className={`block rounded-md px-3 py-1.5 text-sm ${
                active ? "bg-brand-50 font-medium text-brand-700" : "text-slate-700 hover:bg-slate-100"
              }`}
            >
              {item.label}
            </Link>
          );
        })}
      </nav>
      <div className="border-t border-slate-200 p-3 text-xs">
        <div className="truncate text-slate-700" data-testid="current-user">
          {email}
        </div>
        <div className="text-slate-500">{role.replace("_", " ")}</div>
        <button
          type="button"
          onClick={() => void signOut({ callbackUrl: "/login" })}
          className="mt-2 w-full rounded-md border border-slate-300 px-2 py-1 text-slate-700 hover:bg-slate-100"
        >
          Sign out
        </button>
      </div>
    </aside>
  );
}
