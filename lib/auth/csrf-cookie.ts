import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

// next-auth 4's double-submit CSRF cookie (`<token>|sha256(<token><secret>)`), made here so that the
// sign-in form can carry the token in plain HTML and post without JavaScript.

export function csrfCookieName(secure: boolean): string {
  return `${secure ? "__Host-" : ""}next-auth.csrf-token`;
}

function hashToken(token: string, secret: string): string {
  return createHash("sha256").update(`${token}${secret}`).digest("hex");
}

/** The token of a valid cookie value, or null (absent, malformed, or signed with another secret). */
export function readCsrfCookie(value: string | undefined, secret: string): string | null {
  if (!value) return null;
  const [token, hash] = value.split("|");
  if (!token || !hash) return null;
  const expected = Buffer.from(hashToken(token, secret));
  const given = Buffer.from(hash);
  return expected.length === given.length && timingSafeEqual(expected, given) ? token : null;
}

export function newCsrfCookie(secret: string): { token: string; value: string } {
  const token = randomBytes(32).toString("hex");
  return { token, value: `${token}|${hashToken(token, secret)}` };
}
