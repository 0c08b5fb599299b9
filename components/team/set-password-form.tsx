"use client";

import { useState } from "react";
import { apiFetch, errorMessage } from "@/components/api/client";

const inputClass = "mt-1 block w-full rounded-md border border-slate-300 px-3 py-2";

export function SetPasswordForm({ home }: { home: string }) {
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  return (
    <form
      className="mt-6 space-y-4"
      onSubmit={(e) => {
        e.preventDefault();
        setPending(true);
        setError(null);
        apiFetch("/dashboard-api/account/password", { json: { password, confirm } })
          // the new password ends every session of the account, this one included
          .then(() =>
            window.location.assign(`/login?error=PasswordChanged&callbackUrl=${encodeURIComponent(home)}`),
          )
          .catch((err: unknown) => {
            setError(errorMessage(err).replace(/^\/\w+: /, ""));
            setPending(false);
          });
      }}
    >
      <label className="block text-sm">
        <span className="font-medium text-slate-700">New password (at least 8 characters)</span>
        <input
          type="password"
          autoComplete="new-password"
          required
          className={inputClass}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </label>
      <label className="block text-sm">
        <span className="font-medium text-slate-700">The same again</span>
        <input
          type="password"
          autoComplete="new-password"
          required
          className={inputClass}
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
        />
      </label>
      {error && (
        <p
          role="status"
          data-testid="password-error"
          className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700"
        >
          {error}
        </p>
      )}
      <button
        type="submit"
        disabled={pending}
        className="w-full rounded-md bg-brand-600 px-3 py-2 text-sm font-medium text-white hover:bg-brand-700 disabled:opacity-60"
      >
        Set password and continue
      </button>
    </form>
  );
}
