import { canonicalJson } from "@/lib/json/canonical-json";
import { type TContent, type TContentNode } from "@/lib/reports/content";
import { checkStored, describeType, fieldLabel } from "@/lib/reports/goaml/check-value";
import type { TElementDecl, TEnumValue, TGoamlSchema } from "@/lib/reports/goaml/schema";
import { elementsOf, requiredElements } from "@/lib/reports/goaml/schema";
import { addableElements, canRemove, holderOf } from "@/lib/reports/goaml/structure";
import { contentKey, declAt, itemBounds, wrappedItem } from "@/lib/reports/goaml/walk";

// The draft editor's model: the report's fields grouped by who or what they describe. A person, account or entity
// that appears in several transactions (the same customer on every payout) is one group whose fields carry every
// path where it appears, so a value is typed once and applied everywhere. Labels are words from the schema names.

export type TEditorInput =
  | { kind: "select"; options: TEnumValue[] }
  | { kind: "date" | "datetime"; placeholder: string }
  | { kind: "text"; placeholder: string; maxLength?: number; multiline?: boolean };

export type TEditorField = {
  /** DOM id, the target of the verdict's links. */
  id: string;
  label: string;
  /** Every content path this field sets. */
  paths: string[];
  value: string;
  required: boolean;
  missing: boolean;
  problem?: string;
  input: TEditorInput;
  /** An empty optional value that may be taken out again (added by mistake). */
  removable?: boolean;
};

/** A part of a group that holds elements (the group itself, an address, an identification): what may be added or removed. */
export type TEditorPart = {
  id: string;
  /** "" for the group itself, else words such as "Identification 2". */
  label: string;
  /** The part's content path in every place the group appears. */
  paths: string[];
  add: { element: string; label: string }[];
  removable: boolean;
};

export type TEditorGroup = {
  id: string;
  title: string;
  where: string[];
  fields: TEditorField[];
  parts: TEditorPart[];
};

type TObj = { [key: string]: TContentNode | undefined };
const isObj = (v: unknown): v is TObj => v !== null && typeof v === "object" && !Array.isArray(v);

const PARTY = /^t_(person|entity|account)(_my_client)?$/;

// Words for the structural parts of a path inside a group ("" when the field's own label says enough).
const PREFIXES: Record<string, string> = {
  t_from_my_client: "Sender side",
  t_from: "Sender side",
  t_to_my_client: "Recipient side",
  t_to: "Recipient side",
  from_foreign_currency: "",
  to_foreign_currency: "",
  phones: "",
  addresses: "Address",
  signatory: "Signatory",
};

const ROLES: Record<string, string> = {
  from_person: "sender",
  from_account: "sender's account",
  from_entity: "sender",
  to_person: "recipient",
  to_account: "recipient's account",
  to_entity: "recipient",
  t_person: "account holder",
  person_my_client: "reported party",
  person: "reported party",
  account: "reported account",
  entity: "reported entity",
  t_conductor: "conductor",
};

function partyTitle(node: TObj, typeName: string): string {
  const text = (v: TContentNode | undefined) =>
    typeof v === "string" || typeof v === "number" ? String(v) : "";
  if (typeName.startsWith("t_account")) {
    const at = text(node.institution_name);
    return `Account ${text(node.account) || "(no number)"}${at ? ` at ${at}` : ""}`;
  }
  if (typeName.startsWith("t_entity")) return text(node.name) || "Unnamed organisation";
  const name = [text(node.first_name), text(node.last_name)].filter(Boolean).join(" ");
  return name || "Unnamed person";
}

/** Words for the structural steps of a path inside a group: ["addresses[1]", "address"] → ["Address 2"]. */
function partWords(parts: string[], named = false): string[] {
  return parts
    .map((part, i) => {
      const index = /\[(\d+)\]/.exec(part);
      const key = part.replace(/\[\d+\]/g, "");
      // A part's own name is never left out ("Phone 2", not ""), its enclosing steps may be.
      const own = named && i === parts.length - 1 ? PART_NAMES[key] : undefined;
      const name = own ?? PREFIXES[key] ?? fieldLabel(key);
      return index && Number(index[1]) > 0 ? `${name || fieldLabel(key)} ${Number(index[1]) + 1}` : name;
    })
    .filter(Boolean);
}

const PART_NAMES: Record<string, string> = {
  phones: "Phone",
  from_foreign_currency: "Foreign currency",
  to_foreign_currency: "Foreign currency",
};

// Never offered for adding: transactions come from screened data, indicators have their own form.
const NOT_ADDED = new Set(["transaction", "report_indicators", "activity"]);

type TContainer = { key: string; title: string; where: string; path: string; node: TObj; decl: TElementDecl };

// Date-times that carry a time of day; every other goAML date (a birth date, an expiry date) is a date.
const WITH_TIME = /transaction|submission|posting|value_date|time/;

const dateKind = (decl: TElementDecl): "date" | "datetime" | null =>
  decl.simple?.base === "date"
    ? "date"
    : decl.simple?.base === "dateTime"
      ? WITH_TIME.test(decl.name)
        ? "datetime"
        : "date"
      : null;

function inputFor(decl: TElementDecl, value: TContentNode): TEditorInput {
  const type = decl.simple!;
  if (type.enumerations.length) return { kind: "select", options: type.enumerations };
  const date = dateKind(decl);
  // A stored value not in ISO form stays a text field, so the officer sees what is there.
  if (date && (value === null || /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?)?$/.test(String(value))))
    return { kind: date, placeholder: describeType(type) };
  if (type.base === "boolean")
    return {
      kind: "select",
      options: [
        { value: "true", label: "Yes" },
        { value: "false", label: "No" },
      ],
    };
  const long = type.base === "string" && (type.facets.maxLength ?? Infinity) > 255;
  return { kind: "text", placeholder: describeType(type), maxLength: type.facets.maxLength, multiline: long };
}

function displayValue(value: TContentNode, decl: TElementDecl): string {
  if (value === null) return "";
  // xs:boolean also takes 1 and 0; the editor offers Yes and No.
  if (decl.simple?.base === "boolean") return /^(true|1)$/.test(String(value)) ? "true" : "false";
  const text = String(value);
  const date = dateKind(decl);
  // Dates as dates (1985-03-14, not 1985-03-14T00:00:00); date-times as the browser's date-time input wants them.
  if (date === "date" && /^\d{4}-\d{2}-\d{2}(T00:00:00)?$/.test(text)) return text.slice(0, 10);
  if (date === "datetime" && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/.test(text)) return text;
  return text;
}

/** Editor groups for a report's content under the active schema; `missing` is the report's incomplete list. */
export function buildEditor(content: TContent, schema: TGoamlSchema, missing: string[]): TEditorGroup[] {
  const containers: TContainer[] = [];
  const report = schema.report;

  const visit = (node: TObj, decl: TElementDecl, path: string, where: string) => {
    for (const child of elementsOf(decl.complex)) {
      const key = contentKey(child.name);
      const value = node[key];
      const childPath = path ? `${path}.${key}` : key;
      if (value === undefined || value === null || !child.complex) continue;
      const items = Array.isArray(value) ? value : [value];
      const itemDecl = Array.isArray(value) ? (wrappedItem(child) ?? child) : child;
      items.forEach((item, i) => {
        if (!isObj(item) || !itemDecl.complex) return;
        const p = Array.isArray(value) ? `${childPath}[${i}]` : childPath;
        const typeName = itemDecl.complex.name ?? "";
        if (child.name === "transaction") {
          const number = typeof item.transactionnumber === "string" ? ` (${item.transactionnumber})` : "";
          const label = `Transaction ${i + 1}`;
          containers.push({
            key: p,
            title: `${label}${number}`,
            where: label,
            path: p,
            node: item,
            decl: itemDecl,
          });
          visit(item, itemDecl, p, label);
        } else if (PARTY.test(typeName) || path === "") {
          const role = ROLES[child.name] ?? fieldLabel(child.name).toLowerCase();
          const title = path === "" ? fieldLabel(child.name) : partyTitle(item, typeName);
          const key = path === "" ? p : `${typeName}:${canonicalJson(item)}`;
          containers.push({
            key,
            title,
            where: where ? `${where} · ${role}` : role,
            path: p,
            node: item,
            decl: itemDecl,
          });
          visit(item, itemDecl, p, where);
        } else visit(item, itemDecl, p, where);
      });
    }
  };
  containers.push({
    key: "",
    title: "Report",
    where: "report header",
    path: "",
    node: content,
    decl: report,
  });
  visit(content, report, "", "");

  // Paths of each container, nested containers excluded.
  const owner = (path: string): TContainer | undefined => {
    let best: TContainer | undefined;
    for (const c of containers)
      if (
        (c.path === "" || path === c.path || path.startsWith(`${c.path}.`)) &&
        (!best || c.path.length > best.path.length)
      )
        best = c;
    return best;
  };

  const leaves: { path: string; value: TContentNode; decl: TElementDecl; required: boolean }[] = [];
  const nodes: { path: string; node: TObj; decl: TElementDecl }[] = [];
  const collect = (node: TContentNode | undefined, decl: TElementDecl, path: string, required: boolean) => {
    if (node === undefined) return;
    if (Array.isArray(node)) {
      const item = wrappedItem(decl) ?? decl;
      node.forEach((v, i) => collect(v, item, `${path}[${i}]`, required));
    } else if (isObj(node)) {
      nodes.push({ path, node, decl });
      const needed = requiredElements(decl.complex);
      for (const child of elementsOf(decl.complex)) {
        const key = contentKey(child.name);
        collect(node[key], child, path ? `${path}.${key}` : key, needed.includes(child.name));
      }
    } else if (decl.simple) leaves.push({ path, value: node, decl, required });
  };
  collect(content, report, "", true);
  const missingSet = new Set(missing);
  for (const path of missing)
    if (!leaves.some((l) => l.path === path)) {
      const decl = declAt(schema, path);
      if (decl?.simple) leaves.push({ path, value: null, decl, required: true });
    }

  const groups = new Map<string, TEditorGroup>();
  const fieldsByGroup = new Map<string, Map<string, TEditorField>>();
  const memberPaths = new Map<string, Set<string>>();
  for (const leaf of leaves) {
    const c = owner(leaf.path);
    if (!c || leaf.path.startsWith("report_indicators")) continue;
    const rel = c.path ? leaf.path.slice(c.path.length + 1) : leaf.path;
    let group = groups.get(c.key);
    if (!group) {
      group = { id: `g${groups.size + 1}`, title: c.title, where: [], fields: [], parts: [] };
      groups.set(c.key, group);
      fieldsByGroup.set(c.key, new Map());
      memberPaths.set(c.key, new Set());
    }
    if (!memberPaths.get(c.key)!.has(c.path)) {
      memberPaths.get(c.key)!.add(c.path);
      group.where.push(c.where);
    }
    const fields = fieldsByGroup.get(c.key)!;
    let field = fields.get(rel);
    const isMissing = missingSet.has(leaf.path);
    if (!field) {
      const prefix = partWords(rel.split(".").slice(0, -1));
      field = {
        id: `field-${group.id}-${rel.replace(/[^\w]+/g, "-")}`,
        label: [...prefix, fieldLabel(leaf.decl.name)].join(" · "),
        paths: [],
        value: displayValue(leaf.value, leaf.decl),
        required: leaf.required || isMissing,
        missing: isMissing,
        problem: leaf.value === null ? undefined : (checkStored(leaf.decl, leaf.value) ?? undefined),
        input: inputFor(leaf.decl, leaf.value),
        removable:
          leaf.value === null && !leaf.required && canRemove(content, schema, leaf.path) ? true : undefined,
      };
      fields.set(rel, field);
      group.fields.push(field);
    }
    field.paths.push(leaf.path);
    field.missing ||= isMissing;
  }

  // Parts that hold elements: what the schema allows to add there, and whether the part itself may go.
  const partsByGroup = new Map<string, Map<string, TEditorPart>>();
  for (const n of nodes) {
    const c = owner(n.path);
    const group = c && groups.get(c.key);
    if (!c || !group || n.path.startsWith("report_indicators")) continue;
    const rel = c.path ? n.path.slice(c.path.length + 1) : n.path;
    const parts = partsByGroup.get(c.key) ?? new Map<string, TEditorPart>();
    partsByGroup.set(c.key, parts);
    let part = parts.get(rel);
    if (!part) {
      const add = addableElements(n.node, n.decl.complex)
        .filter((d) => !NOT_ADDED.has(d.name))
        .map((d) => {
          const item = d.max <= 1 && itemBounds(d) ? wrappedItem(d) : undefined;
          const label = fieldLabel((item ?? d).name);
          return {
            element: d.name,
            label: n.node[contentKey(d.name)] === undefined ? label : `Another ${label.toLowerCase()}`,
          };
        });
      part = {
        id: `part-${group.id}-${rel.replace(/[^\w]+/g, "-") || "self"}`,
        label: rel ? partWords(rel.split("."), true).join(" · ") : "",
        paths: [],
        add,
        // A transaction stays: it is what was screened; anything else may go when the schema lets it.
        removable:
          n.path !== "" && !/^transactions\[\d+\]$/.test(n.path) && canRemove(content, schema, n.path),
      };
      parts.set(rel, part);
      group.parts.push(part);
    }
    part.paths.push(n.path);
  }
  return [...groups.values()].filter((g) => g.fields.length > 0 || g.parts.some((p) => p.add.length > 0));
}

/**
 * The editor field that sets `path`, for linking a problem to it; for an element the draft lacks altogether (an
 * identification, a second phone), the group's Add control, labelled with the element.
 */
export function fieldFor(
  groups: TEditorGroup[],
  path: string,
): { group: TEditorGroup; field: Pick<TEditorField, "id" | "label"> } | null {
  for (const group of groups)
    for (const field of group.fields) if (field.paths.includes(path)) return { group, field };
  const holder = holderOf(path);
  const element = path.slice(holder ? holder.length + 1 : 0).replace(/\[\d+\]$/, "");
  for (const group of groups)
    for (const part of group.parts)
      if (part.paths.includes(holder) && part.add.some((a) => contentKey(a.element) === element)) {
        const label = [part.label, fieldLabel(element === "transactions" ? "transaction" : element)]
          .filter(Boolean)
          .join(" · ");
        return { group, field: { id: `add-${group.id}`, label } };
      }
  return null;
}

/** A content path in words: "Daniel Kamau · Date of birth", or the element names as words when no field has it. */
export function describePath(groups: TEditorGroup[], path: string): string {
  const hit = fieldFor(groups, path);
  if (hit) return `${hit.group.title} · ${hit.field.label}`;
  return path
    .split(".")
    .map((part) => {
      const index = /\[(\d+)\]/.exec(part);
      const name = fieldLabel(part.replace(/\[\d+\]/g, "").replace(/^transactions$/, "transaction"));
      return index ? `${name} ${Number(index[1]) + 1}` : name;
    })
    .join(" · ");
}
