// Next.js calls register() once when a server process starts: the background job driver starts there.
export async function register(): Promise<void> {
  // NEXT_RUNTIME is inlined per bundle, so the edge bundle drops the Node-only import below.
  if (process.env.NEXT_RUNTIME === "nodejs") {
    // Build workers also load instrumentation; background work belongs to the running server only.
    if (process.env.NEXT_PHASE === "phase-production-build") return;
    // `next start` run directly (without scripts/start.ts) must not print Ready on a broken configuration.
    const { checkStartup, exitWithConfigurationErrors } = await import("@/lib/startup/check-startup");
    const problems = await checkStartup(process.env);
    if (problems.length > 0) exitWithConfigurationErrors(problems);
    const { stampPeerAddresses } = await import("@/lib/auth/client-address");
    await stampPeerAddresses();
    const { startBackgroundJobs } = await import("@/lib/jobs/start");
    startBackgroundJobs();
    const { installGracefulShutdown } = await import("@/lib/ops/graceful-shutdown");
    installGracefulShutdown();
    // scripts/next-server.mjs reports each finished answer here (request count and latency metrics)
    const { observeRequest } = await import("@/lib/ops/metrics");
    const { serveClusterMetricsInWorker } = await import("@/lib/ops/cluster-metrics");
    (globalThis as Record<symbol, unknown>)[Symbol.for("rss.observeRequest")] = observeRequest;
    serveClusterMetricsInWorker();
  }
}
