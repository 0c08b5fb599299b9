import { requirePageRole } from "@/lib/auth/session";

export default async function OverviewPage() {
  const user = await requirePageRole();
  return (
    <div>
      <h1 className="text-2xl font-semibold">Overview</h1>
      <p className="mt-1 text-sm text-slate-500">Signed in as {user.email}.</p>
    </div>
  );
}
