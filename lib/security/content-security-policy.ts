/**
 * The dashboard's and the docs page's Content-Security-Policy: scripts only with this response's
 * nonce (Next.js puts it on its own script tags when it finds it in the request's CSP header) and
 * what they load ('strict-dynamic'); nothing may frame the pages (clickjacking on "Block user",
 * "File report"); forms post only to this origin. Styles allow inline attributes: React renders
 * `style={...}` (chart bars, widths), which cannot carry a nonce.
 */
export function contentSecurityPolicy(nonce: string, { dev }: { dev: boolean }): string {
  return [
    "default-src 'self'",
    // Next.js's development runtime evaluates code (React refresh); production never does.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** For JSON and file answers: nothing to run, nothing to frame. */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";
