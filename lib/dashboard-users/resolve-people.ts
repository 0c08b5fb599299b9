import { prisma } from "@/lib/db";
import type { TPerson } from "@/lib/format";

export type TPeople = {
  /** A dashboard user named by the email stored on a record (reviewedBy, confirmedBy, reviewer); free text as is. */
  byEmail: (label: string | null) => TPerson | null;
  /** A dashboard user by id; unknown ids (API commenters) as the fallback label. */
  byId: (id: string, fallback?: string | null) => TPerson;
  /** The author of a comment: a dashboard user by id, an API commenter by display name (their id on hover). */
  commenter: (c: { source: string; commenterId: string; commenterDisplayName: string | null }) => TPerson;
};

/**
 * Records name the dashboard user who acted by email (what webhooks carry) or by id. A screen shows each
 * as the same person, display name first with the email on hover: one read of the client's users involved.
 */
export async function resolvePeople({
  clientId,
  emails = [],
  ids = [],
}: {
  clientId: string;
  emails?: (string | null)[];
  ids?: string[];
}): Promise<TPeople> {
  const wantedEmails = [...new Set(emails.filter((e): e is string => !!e && e.includes("@")))];
  const wantedIds = [...new Set(ids)];
  const users =
    wantedEmails.length || wantedIds.length
      ? await prisma.dashboardUser.findMany({
          where: { clientId, OR: [{ email: { in: wantedEmails } }, { id: { in: wantedIds } }] },
          select: { id: true, email: true, name: true },
        })
      : [];
  const emailMap = new Map(users.map((u) => [u.email.toLowerCase(), u]));
  const idMap = new Map(users.map((u) => [u.id, u]));
  const person = (u: { name: string | null; email: string }): TPerson => ({ name: u.name, email: u.email });
  const byId = (id: string, fallback?: string | null): TPerson => {
    const user = idMap.get(id);
    return user ? person(user) : { name: null, email: fallback ?? id };
  };
  return {
    byEmail: (label) => {
      if (!label) return null;
      const user = emailMap.get(label.toLowerCase());
      return user ? person(user) : { name: null, email: label };
    },
    byId,
    commenter: (c) =>
      c.source === "dashboard"
        ? byId(c.commenterId, c.commenterDisplayName)
        : { name: c.commenterDisplayName, email: c.commenterId },
  };
}
