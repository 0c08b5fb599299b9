// Wakes this process's background driver (lib/jobs/start.ts) right after a commit that queued work,
// instead of at its next poll: commit-to-first-attempt then costs no poll interval.
const globalForJobs = globalThis as unknown as { jobDriver?: { wake: () => void } | null };

export function wakeBackgroundJobs(): void {
  globalForJobs.jobDriver?.wake();
}
