import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { csrfCookieName, newCsrfCookie, readCsrfCookie } from "@/lib/auth/csrf-cookie";

// The cookie proxy.ts sets for the sign-in form must be the one next-auth itself verifies.
const require = createRequire(import.meta.url);
// not in next-auth's package exports: loaded by file
const { createCSRFToken } = require(path.resolve("node_modules/next-auth/core/lib/csrf-token.js")) as {
  createCSRFToken: (args: {
    options: { secret: string };
    cookieValue?: string;
    isPost: boolean;
    bodyValue?: string;
  }) => { csrfToken: string; csrfTokenVerified?: boolean; cookie?: string };
};

const SECRET = "unit-test-nextauth-secret-0123";

describe("sign-in CSRF cookie", () => {
  it("is accepted by next-auth's own check when the form posts its token", () => {
    const { token, value } = newCsrfCookie(SECRET);
    const checked = createCSRFToken({
      options: { secret: SECRET },
      cookieValue: value,
      isPost: true,
      bodyValue: token,
    });
    expect(checked).toEqual({ csrfToken: token, csrfTokenVerified: true });
  });

  it("reads next-auth's own cookie, and refuses one signed with another secret or tampered", () => {
    const made = createCSRFToken({ options: { secret: SECRET }, isPost: false });
    expect(readCsrfCookie(made.cookie, SECRET)).toBe(made.csrfToken);
    expect(readCsrfCookie(made.cookie, "another-secret-0123456789")).toBeNull();
    expect(readCsrfCookie(`${made.csrfToken}x|${made.cookie!.split("|")[1]}`, SECRET)).toBeNull();
    expect(readCsrfCookie("garbage", SECRET)).toBeNull();
    expect(readCsrfCookie(undefined, SECRET)).toBeNull();
  });

  it("uses next-auth's cookie names", () => {
    expect(csrfCookieName(false)).toBe("next-auth.csrf-token");
    expect(csrfCookieName(true)).toBe("__Host-next-auth.csrf-token");
  });
});
