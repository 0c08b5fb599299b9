// Process-wide lifecycle state. Kept on globalThis: instrumentation and each route are bundled
// separately, and every copy of this module must see the one draining flag of the process.
type TLifecycle = { drainingSince: number | null };

const state: TLifecycle = ((globalThis as { rssLifecycle?: TLifecycle }).rssLifecycle ??= {
  drainingSince: null,
});

/** From now on readiness answers 503, so a load balancer sends this process nothing new. */
export function startDraining(): void {
  state.drainingSince ??= Date.now();
}

export function isDraining(): boolean {
  return state.drainingSince !== null;
}
