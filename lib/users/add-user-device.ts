import { addUserDeviceHot } from "@/lib/screening/hot/user-device";
import type { TAddUserDevice } from "@/lib/users/schemas";

/** POST /v1/user/device: records a device of a known user. Raw SQL, one statement (lib/screening/hot). */
export async function addUserDevice(args: { clientId: string } & TAddUserDevice): Promise<{ id: string }> {
  return addUserDeviceHot(args);
}
