/* global process */
// Headers for every answer; pages also get a per-request nonce CSP from proxy.ts.
const securityHeaders = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  // Production runs behind TLS (SECURITY.md); over plain HTTP browsers ignore it.
  ...(process.env.NODE_ENV === "production"
    ? [{ key: "Strict-Transport-Security", value: "max-age=31536000; includeSubDomains" }]
    : []),
];
// Keep in step with API_CONTENT_SECURITY_POLICY in lib/security/content-security-policy.ts.
const apiHeaders = [{ key: "Content-Security-Policy", value: "default-src 'none'; frame-ancestors 'none'" }];

/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // The dev server refuses its scripts to other hosts unless listed: the login page opened at
  // 127.0.0.1 would then have no JavaScript at all.
  allowedDevOrigins: ["127.0.0.1", "localhost"],
  serverExternalPackages: [
    "@electric-sql/pglite",
    "@electric-sql/pglite-socket",
    "pglite-prisma-adapter",
    "pg",
    "@prisma/adapter-pg",
    "bcryptjs",
    "xmllint-wasm",
    "prom-client",
  ],
  // Types are checked once by `tsc --noEmit` in `npm test`; the build does not repeat it.
  typescript: { ignoreBuildErrors: true },
  async headers() {
    return [
      { source: "/:path*", headers: securityHeaders },
      { source: "/v1/:path*", headers: apiHeaders },
      { source: "/api/:path*", headers: apiHeaders },
      { source: "/dashboard-api/:path*", headers: apiHeaders },
      { source: "/healthz", headers: apiHeaders },
      { source: "/readyz", headers: apiHeaders },
      { source: "/metrics", headers: apiHeaders },
    ];
  },
};

export default nextConfig;
