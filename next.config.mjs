/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  serverExternalPackages: [
    "@electric-sql/pglite",
    "@electric-sql/pglite-socket",
    "pglite-prisma-adapter",
    "pg",
    "@prisma/adapter-pg",
    "bcryptjs",
  ],
  typescript: { ignoreBuildErrors: false },
};

export default nextConfig;
