import { saveUserHot } from "@/lib/screening/hot/screen-party";
import type { TUser } from "@/lib/users/schemas";

/** POST /v1/user: create or update the user; no screening. Raw SQL, two statements (lib/screening/hot). */
export async function saveUser(args: {
  clientId: string;
  user: TUser;
  source?: string;
}): Promise<{ id: string; created: boolean }> {
  return saveUserHot(args);
}
