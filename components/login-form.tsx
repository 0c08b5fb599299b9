// A plain HTML form posted to next-auth's credentials callback: it works before, and without, any
// script (the password never travels in a URL), and every answer comes back as a redirect.

const MESSAGES: Record<string, string> = {
  CredentialsSignin: "Wrong email or password.",
  SignInThrottled: "Too many failed sign-ins. Wait a little and try again.",
  // not a failure: setting a new password ends the session it was set in
  PasswordChanged: "Your new password is set. Sign in with it.",
  SignInChooseOrganisation:
    "This email and password open more than one organisation. Type the name of the one to sign in to.",
  SignInLocked:
    "Sign-in is locked after repeated failures. It unlocks by itself after a while; an admin of your team can unlock it now.",
};

export function loginErrorMessage(code: string | undefined): string | null {
  if (!code) return null;
  return MESSAGES[code] ?? "Sign-in failed. Try again.";
}

export function LoginForm({
  csrfToken,
  callbackUrl,
  error,
  askOrganisation = false,
}: {
  csrfToken: string;
  callbackUrl: string;
  error: string | null;
  /** Shown after an email and password matched accounts of several organisations. */
  askOrganisation?: boolean;
}) {
  return (
    <form method="post" action="/api/auth/callback/credentials" className="mt-6 space-y-4">
      <input type="hidden" name="csrfToken" value={csrfToken} />
      <input type="hidden" name="callbackUrl" value={callbackUrl} />
      <label className="block text-sm">
        <span className="font-medium text-slate-700">Email</span>
        <input
          name="email"
          type="email"
          autoComplete="username"
          required
          className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2"
        />
      </label>
      <label className="block text-sm">
        <span className="font-medium text-slate-700">Password</span>
        <input
          name="password"
          type="password"
          autoComplete="current-password"
          required
          className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2"
        />
      </label>
      {askOrganisation && (
        <label className="block text-sm">
          <span className="font-medium text-slate-700">Organisation</span>
          <input
            name="organisation"
            type="text"
            autoComplete="organization"
            required
            maxLength={200}
            dir="auto"
            className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2"
          />
        </label>
      )}
      {error && (
        <p
          data-testid="login-error"
          role="status"
          className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700"
        >
          {error}
        </p>
      )}
      <button
        type="submit"
        className="w-full rounded-md bg-brand-600 px-3 py-2 text-sm font-medium text-white hover:bg-brand-700 disabled:opacity-60"
      >
        Sign in
      </button>
    </form>
  );
}
