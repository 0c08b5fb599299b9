/**
 * The dashboard's and the docs page's Content-Security-Policy: scripts only with this response's
 * nonce (Next.js puts it on its own script tags when it finds it in the request's CSP header) and
 * what they load ('strict-dynamic'); nothing may frame the pages (clickjacking on "Block user",
 * "File report"); forms post only to this origin. Style sheets come from this origin only: no inline
 * `<style>` element can be injected (CSS selectors can read attribute values out of a page). Inline style
 * attributes stay allowed: React renders `style={...}` (chart bars, widths), which cannot carry a nonce, and
 * an attribute has no selectors. The development server injects its CSS as `<style>` elements.
 */

/**
 * The one inline style sheet the production pages use, allowed by its hash: Cytoscape (the network view)
 * adds `.__________cytoscape_container { position: relative; }` to the head. A Cytoscape upgrade that
 * changes it shows as a CSP violation in the browser tests (e2e/hardening.spec.ts).
 */
const CYTOSCAPE_STYLESHEET = "'sha256-pgvDUBa4IjFA2yuSJ2cqcyxmNYJMborsd0ORcRv9vw8='";

export function contentSecurityPolicy(nonce: string, { dev }: { dev: boolean }): string {
  return [
    "default-src 'self'",
    // Next.js's development runtime evaluates code (React refresh); production never does.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self'",
    `style-src-elem 'self' ${dev ? "'unsafe-inline'" : CYTOSCAPE_STYLESHEET}`,
    "style-src-attr 'unsafe-inline'",
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
