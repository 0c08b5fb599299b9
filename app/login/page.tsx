import { LoginForm } from "@/components/login-form";

export const metadata = { title: "Sign in · Risk Screening" };

export default function LoginPage() {
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-8 shadow-sm">
        <h1 className="text-xl font-semibold">Sign in</h1>
        <p className="mt-1 text-sm text-slate-500">Risk Screening dashboard</p>
        <LoginForm />
      </div>
    </main>
  );
}
