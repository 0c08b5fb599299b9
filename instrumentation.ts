// Next.js calls register() once when a server process starts: start the background job driver there.
export async function register(): Promise<void> {
  // Next replaces these at build time; the driver needs Node APIs and must not run while building.
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  const { startBackgroundJobs } = await import("@/lib/jobs/start");
  startBackgroundJobs();
}
