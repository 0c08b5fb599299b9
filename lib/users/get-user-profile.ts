import { prisma } from "@/lib/db";
import { resolvePeople } from "@/lib/dashboard-users/resolve-people";
import type { TPerson } from "@/lib/format";
import { notFound } from "@/lib/errors/domain-error";

export type TUserProfile = {
  user: {
    id: string;
    firstName: string | null;
    lastName: string | null;
    email: string | null;
    phone: string | null;
    status: string;
    statusReason: string | null;
    riskLevel: string | null;
    recommendedAction: string | null;
    /** The latest onboarding screening's decision. */
    decisionId: string | null;
    createdAt: number;
    updatedAt: number;
    data: unknown;
  };
  devices: {
    id: string;
    fingerprint: string | null;
    ipAddress: string | null;
    data: unknown;
    firstSeenAt: number;
    lastSeenAt: number;
  }[];
  instruments: {
    id: string;
    status: string;
    method: string | null;
    inferred: boolean;
    riskLevel: string;
    data: unknown;
    updatedAt: number;
  }[];
  statusHistory: {
    id: string;
    fromStatus: string | null;
    toStatus: string;
    source: string;
    comment: string | null;
    reviewer: TPerson | null;
    reason: string | null;
    createdAt: number;
  }[];
  comments: {
    id: string;
    comment: string;
    commenter: TPerson;
    source: string;
    transactionId: string | null;
    createdAt: number;
  }[];
};

const LIST_LIMIT = 100;

/** The user page (transactions are paginated separately with listTransactions). 404 for another client's id. */
export async function getUserProfile({
  clientId,
  userId,
}: {
  clientId: string;
  userId: string;
}): Promise<TUserProfile> {
  const [user, devices, instruments, statusHistory, comments] = await Promise.all([
    prisma.user.findUnique({ where: { clientId_id: { clientId, id: userId } } }),
    prisma.device.findMany({
      where: { clientId, userId },
      orderBy: { lastSeenAt: "desc" },
      take: LIST_LIMIT,
    }),
    prisma.paymentInstrument.findMany({
      where: { clientId, userId },
      orderBy: { updatedAt: "desc" },
      take: LIST_LIMIT,
    }),
    prisma.userStatusChange.findMany({
      where: { clientId, userId },
      orderBy: { createdAt: "desc" },
      take: LIST_LIMIT,
    }),
    prisma.comment.findMany({
      where: { clientId, userId },
      orderBy: { createdAt: "desc" },
      take: LIST_LIMIT,
    }),
  ]);
  if (!user) throw notFound("/userId", "User not found");
  const people = await resolvePeople({
    clientId,
    emails: statusHistory.filter((s) => s.source === "dashboard").map((s) => s.reviewer),
    ids: comments.filter((c) => c.source === "dashboard").map((c) => c.commenterId),
  });
  return {
    user: {
      id: user.id,
      firstName: user.firstName,
      lastName: user.lastName,
      email: user.email,
      phone: user.phone,
      status: user.status,
      statusReason: user.statusReason,
      riskLevel: user.riskLevel,
      recommendedAction: user.recommendedAction,
      decisionId: user.decisionId,
      createdAt: user.createdAt.getTime(),
      updatedAt: user.updatedAt.getTime(),
      data: user.data,
    },
    devices: devices.map((d) => ({
      id: d.id,
      fingerprint: d.fingerprint,
      ipAddress: d.ipAddress,
      data: d.data,
      firstSeenAt: d.firstSeenAt.getTime(),
      lastSeenAt: d.lastSeenAt.getTime(),
    })),
    instruments: instruments.map((p) => ({
      id: p.id,
      status: p.status,
      method: p.method,
      inferred: p.inferred,
      riskLevel: p.riskLevel,
      data: p.data,
      updatedAt: p.updatedAt.getTime(),
    })),
    statusHistory: statusHistory.map((s) => ({
      id: s.id,
      fromStatus: s.fromStatus,
      toStatus: s.toStatus,
      source: s.source,
      comment: s.comment,
      reviewer:
        s.source === "dashboard"
          ? people.byEmail(s.reviewer)
          : s.reviewer
            ? { name: null, email: s.reviewer }
            : null,
      reason: s.reason,
      createdAt: s.createdAt.getTime(),
    })),
    comments: comments.map((c) => ({
      id: c.id,
      comment: c.comment,
      commenter: people.commenter(c),
      source: c.source,
      transactionId: c.transactionId,
      createdAt: c.createdAt.getTime(),
    })),
  };
}
