import type { TSessionUser } from "@/lib/auth/session";

/** The signed-in dashboard user acting on a record; `email` is what outbound webhooks name as the reviewer. */
export type TDashboardActor = Pick<TSessionUser, "id" | "email" | "name">;

export function actorLabel(actor: TDashboardActor): string {
  return actor.email;
}
