import { redirect } from "next/navigation";
import { SetPasswordForm } from "@/components/team/set-password-form";
import { homePath } from "@/lib/auth/permission-table";
import { currentUser } from "@/lib/auth/session";

export const dynamic = "force-dynamic";
export const metadata = { title: "Set a new password · Risk Screening" };

/** Where a member lands after an admin reset their password: nothing else opens until they set one. */
export default async function PasswordPage() {
  const user = await currentUser();
  if (!user) redirect("/login");
  if (!user.mustChangePassword) redirect(homePath(user.role));
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-8 shadow-sm">
        <h1 className="text-xl font-semibold">Set a new password</h1>
        <p className="mt-1 text-sm text-slate-600">
          An admin reset the password of {user.email}. Choose your own to continue.
        </p>
        <SetPasswordForm home={homePath(user.role)} />
      </div>
    </main>
  );
}
