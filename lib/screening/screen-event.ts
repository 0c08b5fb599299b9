import type { TClientContext } from "@/lib/auth/api-keys";
import type { TEvent } from "@/lib/events/schemas";
import type { TRiskAssessment } from "@/lib/screening/assessment";
import { screenEventHot } from "@/lib/screening/hot/screen-event";

/**
 * Stores a non-monetary event (inline user/merchant upserted). With eventRules it is screened and
 * event.screened emitted; without, it is stored with no assessment. Runs on the raw-SQL path
 * (lib/screening/hot/screen-event.ts).
 */
export async function screenEvent(args: {
  client: TClientContext;
  body: TEvent;
}): Promise<TRiskAssessment | { id: string; status: "success" }> {
  return screenEventHot(args);
}
