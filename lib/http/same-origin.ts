// Forged-request defence for the cookie-authenticated dashboard API. A session cookie travels with any
// request the browser makes to this site, including one a hostile page starts with a plain HTML form
// (SameSite=Lax stops only cross-site ones; a sibling subdomain or another port is "same site"). A
// state-changing request is therefore accepted only when the browser says it came from this origin,
// and only with a body type no HTML form can produce without a CORS preflight (which is never granted).
import { ApiError, validationError } from "@/lib/http/errors";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function isStateChanging(method: string): boolean {
  return !SAFE_METHODS.has(method.toUpperCase());
}

function hostOf(origin: string): string | null {
  try {
    const url = new URL(origin);
    return url.protocol === "http:" || url.protocol === "https:" ? url.host.toLowerCase() : null;
  } catch {
    return null;
  }
}

/**
 * The hosts a same-origin request may come from: the configured public URL (NEXTAUTH_URL) and the host
 * the request was addressed to. A browser cannot make another site's request carry this site's Host, and
 * the proxy's X-Forwarded-Host is a header no form or simple request can set.
 */
function allowedHosts(req: Request, publicUrl: string | undefined): Set<string> {
  const hosts = new Set<string>();
  const configured = publicUrl ? hostOf(publicUrl) : null;
  if (configured) hosts.add(configured);
  const forwarded = req.headers.get("x-forwarded-host")?.split(",")[0]?.trim();
  const host = forwarded || req.headers.get("host") || new URL(req.url).host;
  if (host) hosts.add(host.toLowerCase());
  return hosts;
}

function forged(message: string): ApiError {
  return new ApiError(403, "FORBIDDEN", message, [`/: ${message}`]);
}

/** Why a state-changing request is refused as cross-origin, or null when it came from this site. */
export function crossOriginRefusal(req: Request, publicUrl: string | undefined): ApiError | null {
  if (!isStateChanging(req.method)) return null;
  const fetchSite = req.headers.get("sec-fetch-site")?.toLowerCase();
  if (fetchSite === "cross-site" || fetchSite === "same-site")
    return forged(`Cross-origin request refused (Sec-Fetch-Site: ${fetchSite})`);
  const origin = req.headers.get("origin");
  // Browsers send Origin on every POST, PUT, PATCH and DELETE; "null" is an opaque origin (sandboxed
  // frame, data: URL, some redirects) and is as foreign as any other.
  if (!origin) return forged("Cross-origin request refused: the Origin header is missing");
  const host = hostOf(origin);
  if (!host || !allowedHosts(req, publicUrl).has(host))
    return forged(`Cross-origin request refused: Origin ${origin.slice(0, 200)} is not this site`);
  return null;
}

function mediaType(value: string): string {
  return value.split(";")[0]!.trim().toLowerCase();
}

/**
 * Why a state-changing request's body type is refused (400, as a malformed body is), or null. A request
 * without a body (no Content-Type and no length) is fine; otherwise the type must be one of `accepted`.
 */
export function bodyTypeRefusal(req: Request, accepted: readonly string[]): ApiError | null {
  if (!isStateChanging(req.method)) return null;
  const type = req.headers.get("content-type");
  const length = Number(req.headers.get("content-length") ?? "0");
  const hasBody = length > 0 || req.headers.has("transfer-encoding");
  if (type === null && !hasBody) return null;
  if (type !== null && accepted.includes(mediaType(type))) return null;
  const message = `Content-Type must be ${accepted.join(" or ")}`;
  return validationError([`/: ${message}`]);
}
