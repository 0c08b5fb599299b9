import type { TStoredUserStatus, TUserRecord } from "@/lib/users/schemas";

type TUserRow = {
  id: string;
  createdAt: Date;
  updatedAt: Date;
  firstName: string | null;
  lastName: string | null;
  status: string;
  statusReason: string | null;
};

/** The user record of the read endpoints: id, createdAt, updatedAt, firstName, lastName, status, reason. */
export function serializeUser(row: TUserRow): TUserRecord {
  return {
    id: row.id,
    createdAt: row.createdAt.getTime(),
    updatedAt: row.updatedAt.getTime(),
    firstName: row.firstName,
    lastName: row.lastName,
    status: row.status as TStoredUserStatus,
    reason: row.statusReason ?? "",
  };
}

export const USER_RECORD_SELECT = {
  id: true,
  createdAt: true,
  updatedAt: true,
  firstName: true,
  lastName: true,
  status: true,
  statusReason: true,
} as const;
