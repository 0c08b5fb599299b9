import type { TClientContext } from "@/lib/auth/api-keys";
import type { TRiskAssessment } from "@/lib/screening/assessment";
import { screenUserHot } from "@/lib/screening/hot/screen-party";
import type { TUser } from "@/lib/users/schemas";

/** Onboarding: creates or updates the user, screens it with the client's user rules, emits user.screened. */
/** The raw-SQL path (lib/screening/hot/screen-party.ts): one read, one write statement. */
export async function screenUser(args: { client: TClientContext; body: TUser }): Promise<TRiskAssessment> {
  return screenUserHot(args);
}
