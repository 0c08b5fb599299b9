import { createHash } from "node:crypto";
import { prisma, type Tx } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { canonicalJson } from "@/lib/json/canonical-json";

// The report audit trail: append-only and hash-chained. Each entry's hash covers the entry and the previous
// entry's hash, so editing, reordering or removing an earlier row breaks every later link.

export const GENESIS_HASH = "0".repeat(64);

export type TActor = { type: "api" | "dashboard" | "system"; id: string | null };

export type TAuditInput = {
  clientId: string;
  reportId: string;
  actor: TActor;
  action: string;
  changes?: Record<string, unknown> | null;
  at?: Date;
};

type THashed = {
  clientId: string;
  reportId: string;
  seq: number;
  actorType: string;
  actorId: string | null;
  action: string;
  changes: unknown;
  at: Date;
};

export function entryHash(entry: THashed, prevHash: string): string {
  // jsonb does not keep key order, so entries are hashed with sorted keys.
  const canonical = canonicalJson({
    clientId: entry.clientId,
    reportId: entry.reportId,
    seq: entry.seq,
    actorType: entry.actorType,
    actorId: entry.actorId,
    action: entry.action,
    changes: entry.changes ?? null,
    at: entry.at.toISOString(),
  });
  return createHash("sha256").update(canonical).update(prevHash).digest("hex");
}

/** Appends one entry inside the caller's transaction; the report row lock serializes concurrent appends. */
export async function appendAudit(tx: Tx, input: TAuditInput): Promise<{ seq: number; hash: string }> {
  const { clientId, reportId } = input;
  await tx.$queryRaw`SELECT 1 FROM reports WHERE "clientId" = ${clientId} AND id = ${reportId} FOR UPDATE`;
  const last = await tx.reportAuditEntry.findFirst({
    where: { clientId, reportId },
    orderBy: { seq: "desc" },
    select: { seq: true, hash: true },
  });
  const entry: THashed = {
    clientId,
    reportId,
    seq: (last?.seq ?? 0) + 1,
    actorType: input.actor.type,
    actorId: input.actor.id,
    action: input.action,
    // Round-trip through JSON so the hashed value is exactly what jsonb gives back.
    changes: input.changes ? (JSON.parse(JSON.stringify(input.changes)) as unknown) : null,
    at: input.at ?? new Date(),
  };
  const prevHash = last?.hash ?? GENESIS_HASH;
  const hash = entryHash(entry, prevHash);
  await tx.reportAuditEntry.create({
    data: {
      ...entry,
      changes: (entry.changes ?? undefined) as Prisma.InputJsonValue | undefined,
      prevHash,
      hash,
    },
  });
  return { seq: entry.seq, hash };
}

export type TChainVerification = {
  valid: boolean;
  entries: number;
  brokenAt: number | null;
  reason: string | null;
};

/** Recomputes every link of a report's audit chain. */
export async function verifyAuditChain({
  clientId,
  reportId,
}: {
  clientId: string;
  reportId: string;
}): Promise<TChainVerification> {
  const rows = await prisma.reportAuditEntry.findMany({
    where: { clientId, reportId },
    orderBy: { seq: "asc" },
  });
  let prevHash = GENESIS_HASH;
  for (const [i, row] of rows.entries()) {
    const fail = (reason: string): TChainVerification => ({
      valid: false,
      entries: rows.length,
      brokenAt: row.seq,
      reason,
    });
    if (row.seq !== i + 1) return fail(`Entry ${i + 1} is missing`);
    if (row.prevHash !== prevHash) return fail(`Entry ${row.seq} does not link to the previous entry`);
    if (entryHash(row, prevHash) !== row.hash) return fail(`Entry ${row.seq} was altered`);
    prevHash = row.hash;
  }
  return { valid: true, entries: rows.length, brokenAt: null, reason: null };
}

export async function listAudit(db: Tx, { clientId, reportId }: { clientId: string; reportId: string }) {
  return db.reportAuditEntry.findMany({ where: { clientId, reportId }, orderBy: { seq: "asc" } });
}
