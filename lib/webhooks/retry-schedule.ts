import { env } from "@/lib/env";

// docs/decisions.md §7: 30 s, 2 min, 10 min, 1 h, 3 h, 6 h, 12 h, 24 h, then failed.
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [
  30_000, 120_000, 600_000, 3_600_000, 10_800_000, 21_600_000, 43_200_000, 86_400_000,
];

/** Parses `WEBHOOK_RETRY_DELAYS_MS` ("50,50,50"); N delays mean N + 1 attempts. */
export function parseRetryDelays(raw: string | undefined): readonly number[] {
  if (raw === undefined || raw.trim() === "") return DEFAULT_RETRY_DELAYS_MS;
  const delays = raw.split(",").map((part) => Number(part.trim()));
  if (delays.some((d) => !Number.isFinite(d) || d < 0)) {
    throw new Error(
      `WEBHOOK_RETRY_DELAYS_MS must be comma-separated non-negative milliseconds, got "${raw}"`,
    );
  }
  return delays.map((d) => Math.round(d));
}

export function retryDelaysMs(): readonly number[] {
  return parseRetryDelays(env.WEBHOOK_RETRY_DELAYS_MS);
}
