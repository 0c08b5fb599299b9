import { headers } from "next/headers";
import { LoginForm, loginErrorMessage } from "@/components/login-form";

export const metadata = { title: "Sign in · Risk Screening" };

// Only paths of this site: next-auth would refuse another origin anyway, this keeps the form honest.
function safeCallback(value: string | string[] | undefined): string {
  const v = Array.isArray(value) ? value[0] : value;
  return v && v.startsWith("/") && !v.startsWith("//") ? v : "/dashboard/home";
}

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  // proxy.ts sets next-auth's CSRF cookie and hands its token to the page.
  const csrfToken = (await headers()).get("x-login-csrf") ?? "";
  const error = typeof params.error === "string" ? params.error : undefined;
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-8 shadow-sm">
        <h1 className="text-xl font-semibold">Sign in</h1>
        <p className="mt-1 text-sm text-slate-500">Risk Screening dashboard</p>
        <LoginForm
          csrfToken={csrfToken}
          callbackUrl={safeCallback(params.callbackUrl)}
          error={loginErrorMessage(error)}
          askOrganisation={error === "SignInChooseOrganisation"}
        />
      </div>
    </main>
  );
}
