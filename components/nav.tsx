"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { signOut } from "next-auth/react";
import { can, type TPermission } from "@/lib/auth/permission-table";
import type { TDashboardRole } from "@/lib/dashboard-users/create-dashboard-user";
import { formatEnum } from "@/lib/format";

export type TNavItem = { href: string; label: string; permission: TPermission };

export const NAV_ITEMS: TNavItem[] = [
  // the case inbox is the reviewer's home: first in the list
  { href: "/dashboard/cases", label: "Cases", permission: "dashboard.read" },
  { href: "/dashboard", label: "Overview", permission: "dashboard.read" },
  { href: "/dashboard/alerts", label: "Alerts", permission: "dashboard.read" },
  { href: "/dashboard/transactions", label: "Transactions", permission: "dashboard.read" },
  { href: "/dashboard/users", label: "Users", permission: "dashboard.read" },
  { href: "/dashboard/rules", label: "Rules", permission: "rules.read" },
  { href: "/dashboard/reports", label: "Reports", permission: "reports.read" },
  { href: "/dashboard/lists", label: "Lists", permission: "lists.manage" },
  { href: "/dashboard/webhooks", label: "Webhooks", permission: "webhooks.manage" },
  { href: "/dashboard/api-keys", label: "API keys", permission: "apiKeys.manage" },
  { href: "/dashboard/settings", label: "Settings", permission: "settings.manage" },
  { href: "/dashboard/team", label: "Team", permission: "team.manage" },
  { href: "/dashboard/audit", label: "Audit trail", permission: "audit.read" },
];

export function Nav({
  role,
  name,
  email,
  clientName,
}: {
  role: TDashboardRole;
  name: string | null;
  email: string;
  clientName: string;
}) {
  const pathname = usePathname();
  const items = NAV_ITEMS.filter((item) => can(role, item.permission));
  return (
    <aside className="flex w-56 shrink-0 flex-col border-r border-slate-200 bg-white">
      <div className="border-b border-slate-200 px-4 py-4">
        <div className="text-sm font-semibold">Risk Screening</div>
        <div className="truncate text-xs text-slate-600">{clientName}</div>
      </div>
      <nav className="flex-1 space-y-0.5 p-2" aria-label="Main">
        {items.map((item) => {
          const active = item.href === "/dashboard" ? pathname === item.href : pathname.startsWith(item.href);
          return (
            <Link
              key={item.href}
              href={item.href}
              aria-current={active ? "page" : undefined}
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
        {name && <div className="truncate font-medium text-slate-900">{name}</div>}
        <div className="truncate text-slate-700" data-testid="current-user">
          {email}
        </div>
        <div className="text-slate-600">{formatEnum(role)}</div>
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
