import { writeAudit } from "@/lib/admin/audit";
import type { TSessionUser } from "@/lib/auth/session";
import { prisma, type Tx } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { validationError } from "@/lib/errors/domain-error";
import { appendAudit } from "@/lib/reports/audit";
import type { TContent, TContentNode } from "@/lib/reports/content";
import { lookup, type TEnumValue, type TGoamlSchema } from "@/lib/reports/goaml/schema";
import { declAt } from "@/lib/reports/goaml/walk";
import { activeSchema, incompleteFor } from "@/lib/reports/goaml-xml";
import { indicatorCodes } from "@/lib/reports/indicators";
import { INDICATOR_LIST, isStale, profileCodes, withProfileCode } from "@/lib/reports/profile-codes";
import { EDITABLE_STATUSES } from "@/lib/reports/report-access";
import { readReportProfile, type TReportProfile } from "@/lib/reports/schemas";

// Everything that no longer fits the client's active goAML schema (after an FIU's new schema is uploaded): lookup
// codes of the reporting profile, the rule → indicator mapping, and open drafts holding codes the schema does not
// list. An admin maps each old code to a new one (or drops it) in one audited transaction.

/** Where a stale code is used. */
export type TStaleUse =
  | { kind: "profile"; label: string }
  | { kind: "mapping"; ruleId: string }
  | { kind: "draft"; reportId: string; path: string };

export type TStaleCode = {
  /** The goAML lookup list (simple type) the code should come from. */
  list: string;
  code: string;
  /** The active schema's codes of that list, to map to. */
  options: TEnumValue[];
  uses: TStaleUse[];
};

export type TSchemaMisfits = {
  schemaName: string;
  codes: TStaleCode[];
  /** Open drafts (editable) that hold at least one stale code. */
  drafts: { reportId: string; title: string | null; status: string; codes: number }[];
};

export type TCodeMapping = { list: string; from: string; to: string | null };

type TLeafHit = { path: string; list: string; code: string; options: TEnumValue[] };

/** Leaves of a draft holding a code its element's enumeration does not list. */
function staleLeaves(content: TContent, schema: TGoamlSchema): TLeafHit[] {
  const out: TLeafHit[] = [];
  const walk = (node: TContentNode | undefined, path: string) => {
    if (node === null || node === undefined) return;
    if (Array.isArray(node)) node.forEach((v, i) => walk(v, `${path}[${i}]`));
    else if (typeof node === "object")
      for (const [k, v] of Object.entries(node)) walk(v, path ? `${path}.${k}` : k);
    else if (typeof node === "string") {
      const simple = declAt(schema, path)?.simple;
      if (!simple?.name || simple.enumerations.length === 0) return;
      if (!simple.enumerations.some((e) => e.value === node))
        out.push({ path, list: simple.name, code: node, options: simple.enumerations });
    }
  };
  walk(content, "");
  return out;
}

function optionsOf(schema: TGoamlSchema, list: string): TEnumValue[] {
  return list === INDICATOR_LIST ? indicatorCodes(schema) : lookup(schema, list);
}

type TDraftRow = { id: string; title: string | null; status: string; content: unknown };

function openDrafts(db: Tx | typeof prisma, clientId: string): Promise<TDraftRow[]> {
  return db.report.findMany({
    where: { clientId, status: { in: [...EDITABLE_STATUSES] } },
    select: { id: true, title: true, status: true, content: true },
    orderBy: { createdAt: "asc" },
  });
}

function collectMisfits(profile: TReportProfile, drafts: TDraftRow[]): TSchemaMisfits {
  const active = activeSchema(profile);
  const { schema } = active;
  const byKey = new Map<string, TStaleCode>();
  const use = (list: string, code: string, u: TStaleUse, options?: TEnumValue[]) => {
    const key = `${list}\u0000${code}`;
    let hit = byKey.get(key);
    if (!hit) {
      hit = { list, code, options: options ?? optionsOf(schema, list), uses: [] };
      byKey.set(key, hit);
    }
    hit.uses.push(u);
  };
  for (const c of profileCodes(profile))
    if (isStale(schema, c.list, c.value)) use(c.list, c.value, { kind: "profile", label: c.label });
  for (const [ruleId, codes] of Object.entries(profile.indicatorMapping ?? {}))
    for (const code of codes)
      if (isStale(schema, INDICATOR_LIST, code)) use(INDICATOR_LIST, code, { kind: "mapping", ruleId });
  const draftsOut: TSchemaMisfits["drafts"] = [];
  for (const d of drafts) {
    const hits = staleLeaves(d.content as TContent, schema);
    if (hits.length === 0) continue;
    draftsOut.push({ reportId: d.id, title: d.title, status: d.status, codes: hits.length });
    for (const h of hits) use(h.list, h.code, { kind: "draft", reportId: d.id, path: h.path }, h.options);
  }
  return { schemaName: active.name, codes: [...byKey.values()], drafts: draftsOut };
}

/** What no longer fits the client's active schema, in one list of stale codes with every place that uses each. */
export async function schemaMisfits(clientId: string): Promise<TSchemaMisfits> {
  const [client, drafts] = await Promise.all([
    prisma.client.findUniqueOrThrow({ where: { id: clientId }, select: { reportingProfile: true } }),
    openDrafts(prisma, clientId),
  ]);
  return collectMisfits(readReportProfile(client.reportingProfile), drafts);
}

/** The content with every stale `from` code of `list` replaced by `to`, or dropped (required: left missing). */
function remapContent(
  content: TContent,
  schema: TGoamlSchema,
  byList: Map<string, Map<string, string | null>>,
  changed: Record<string, { from: unknown; to: unknown }>,
): TContent {
  const walk = (node: TContentNode | undefined, path: string): TContentNode | undefined => {
    if (node === null || node === undefined) return node;
    if (Array.isArray(node)) {
      const out: TContentNode[] = [];
      node.forEach((v, i) => {
        const next = walk(v, `${path}[${i}]`);
        if (next !== undefined) out.push(next);
      });
      return out;
    }
    if (typeof node === "object") {
      const out: Record<string, TContentNode | undefined> = {};
      for (const [k, v] of Object.entries(node)) {
        const next = walk(v, path ? `${path}.${k}` : k);
        if (next !== undefined) out[k] = next;
      }
      return out;
    }
    if (typeof node !== "string") return node;
    const decl = declAt(schema, path);
    const map = decl?.simple?.name ? byList.get(decl.simple.name) : undefined;
    if (!map?.has(node) || !isStale(schema, decl!.simple!.name!, node)) return node;
    const to = map.get(node) ?? null;
    // A dropped required value stays as a missing one; a dropped optional one (or a list item) goes.
    const next = to ?? (decl!.min >= 1 && !/\[\d+\]$/.test(path) ? null : undefined);
    changed[path] = { from: node, to: next ?? null };
    return next;
  };
  return walk(content, "") as TContent;
}

/**
 * Maps stale codes to codes of the active schema (or drops them) everywhere at once, in one transaction: the
 * profile's lookups, the rule → indicator mapping and every open draft (each draft's change goes to its own audit
 * trail); one entry in the client's audit log. Only stale codes can be mapped, only to codes of the same list.
 */
export async function mapStaleCodes(user: TSessionUser, mappings: TCodeMapping[]): Promise<TSchemaMisfits> {
  const clientId = user.clientId;
  return prisma.$transaction(
    async (tx) => {
      await tx.$queryRaw`SELECT 1 FROM clients WHERE id = ${clientId} FOR UPDATE`;
      const client = await tx.client.findUniqueOrThrow({
        where: { id: clientId },
        select: { reportingProfile: true },
      });
      let profile = readReportProfile(client.reportingProfile);
      const active = activeSchema(profile);
      const { schema } = active;
      const problems: string[] = [];
      const byList = new Map<string, Map<string, string | null>>();
      mappings.forEach((m, i) => {
        const options = optionsOf(schema, m.list);
        if (options.length === 0)
          problems.push(`/mappings/${i}/list: ${m.list} is not a lookup list of ${active.name}`);
        else if (!isStale(schema, m.list, m.from))
          problems.push(
            `/mappings/${i}/from: ${m.from} is a code of ${active.name}; there is nothing to map`,
          );
        else if (m.to !== null && !options.some((o) => o.value === m.to))
          problems.push(`/mappings/${i}/to: ${m.to} is not a ${m.list} code of ${active.name}`);
        else {
          const map = byList.get(m.list) ?? new Map<string, string | null>();
          map.set(m.from, m.to);
          byList.set(m.list, map);
        }
      });
      if (problems.length) throw validationError(problems);

      const profileChanges: { field: string; from: string; to: string | null }[] = [];
      for (const c of profileCodes(profile)) {
        const map = byList.get(c.list);
        if (!map?.has(c.value)) continue;
        const to = map.get(c.value) ?? null;
        profile = withProfileCode(profile, c.key, to ?? undefined);
        profileChanges.push({ field: c.label, from: c.value, to });
      }
      const indicatorMap = byList.get(INDICATOR_LIST);
      const ruleChanges: { ruleId: string; from: string[]; to: string[] }[] = [];
      if (indicatorMap && profile.indicatorMapping) {
        const next: Record<string, string[]> = {};
        for (const [ruleId, codes] of Object.entries(profile.indicatorMapping)) {
          const mapped = [
            ...new Set(
              codes.flatMap((c) => (indicatorMap.has(c) ? (indicatorMap.get(c) ?? []) : [c])) as string[],
            ),
          ];
          next[ruleId] = mapped;
          if (mapped.join("\u0000") !== codes.join("\u0000"))
            ruleChanges.push({ ruleId, from: codes, to: mapped });
        }
        profile = { ...profile, indicatorMapping: next };
      }
      await tx.client.update({
        where: { id: clientId },
        data: { reportingProfile: profile as Prisma.InputJsonValue },
      });

      const reports: string[] = [];
      for (const d of await openDrafts(tx, clientId)) {
        await tx.$queryRaw`SELECT 1 FROM reports WHERE "clientId" = ${clientId} AND id = ${d.id} FOR UPDATE`;
        const fields: Record<string, { from: unknown; to: unknown }> = {};
        const content = remapContent(d.content as TContent, schema, byList, fields);
        if (Object.keys(fields).length === 0) continue;
        const indicators = Array.isArray(content.report_indicators)
          ? content.report_indicators.filter((c): c is string => typeof c === "string")
          : [];
        await tx.report.update({
          where: { clientId_id: { clientId, id: d.id } },
          data: {
            content: content as Prisma.InputJsonValue,
            indicators,
            incomplete: incompleteFor(content, schema),
            updatedAt: new Date(),
            updatedById: user.id,
          },
        });
        await appendAudit(tx, {
          clientId,
          reportId: d.id,
          actor: { type: "dashboard", id: user.id },
          action: "fields_updated",
          changes: { fields, reason: `goAML codes mapped to ${active.name}` },
        });
        reports.push(d.id);
      }
      await writeAudit(tx, user, {
        action: "client.goaml_codes_mapped",
        entityType: "client",
        entityId: clientId,
        details: {
          schema: active.name,
          mappings,
          profile: profileChanges,
          rules: ruleChanges,
          reports,
        } as Prisma.InputJsonValue,
      });
      return collectMisfits(profile, await openDrafts(tx, clientId));
    },
    { timeout: 30_000 },
  );
}

/** After a schema change: the stored `incomplete` of every report not yet filed, against the new schema. */
export async function refreshIncomplete(tx: Tx, clientId: string, schema: TGoamlSchema): Promise<void> {
  const rows = await tx.report.findMany({
    where: { clientId, status: { notIn: ["submitted", "archived"] } },
    select: { id: true, content: true, incomplete: true },
  });
  for (const row of rows) {
    const incomplete = incompleteFor(row.content as TContent, schema);
    if (incomplete.join("\u0000") !== row.incomplete.join("\u0000"))
      await tx.report.update({ where: { clientId_id: { clientId, id: row.id } }, data: { incomplete } });
  }
}

/** Per rule id, the indicator codes its mapping suggests that the active schema does not list (the rules list). */
export async function staleIndicatorsByRule(clientId: string): Promise<Map<string, string[]>> {
  const client = await prisma.client.findUniqueOrThrow({
    where: { id: clientId },
    select: { reportingProfile: true },
  });
  const profile = readReportProfile(client.reportingProfile);
  const out = new Map<string, string[]>();
  if (!profile.indicatorMapping) return out;
  const { schema } = activeSchema(profile);
  for (const [ruleId, codes] of Object.entries(profile.indicatorMapping)) {
    const stale = codes.filter((c) => isStale(schema, INDICATOR_LIST, c));
    if (stale.length) out.set(ruleId, stale);
  }
  return out;
}
