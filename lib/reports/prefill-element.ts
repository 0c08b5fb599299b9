import type { TContentNode } from "@/lib/reports/content";
import { fold } from "@/lib/reports/goaml/check-value";
import { childElement, type TElementDecl } from "@/lib/reports/goaml/schema";
import { addressNode, phoneNode } from "@/lib/reports/populate-report";
import type { TReportProfile } from "@/lib/reports/schemas";
import type { TUser } from "@/lib/users/schemas";

// What the service already knows for an element an officer adds to a person of the institution's own client: the
// user's stored identity documents, address, phone and email, each offered once (one already in the report is not
// offered again). Lookup codes are filled only when the schema's label says which code it is; otherwise the
// officer chooses.

type TObj = { [key: string]: TContentNode | undefined };
const isObj = (v: unknown): v is TObj => v !== null && typeof v === "object" && !Array.isArray(v);

// Words a document type uses → words the FIU's label for that identifier type uses.
const DOCUMENT_KINDS: [RegExp, RegExp][] = [
  [/passport/, /passport/],
  [/driv|licen/, /driv/],
  [/national|identity|id card|^id$/, /national|identity|id card/],
  [/residen/, /residen/],
];

function identifierCode(decl: TElementDecl, documentType: string | undefined): string | null {
  const type = childElement(decl.complex, "type")?.simple;
  const words = fold(documentType ?? "");
  if (!type || !words) return null;
  const kind = DOCUMENT_KINDS.find(([doc]) => doc.test(words));
  const hits = kind ? type.enumerations.filter((e) => e.label && kind[1].test(fold(e.label))) : [];
  return hits.length === 1 ? hits[0]!.value : null;
}

const texts = (siblings: TContentNode[], key: string): string[] =>
  siblings.flatMap((s) => (isObj(s) && s[key] !== undefined && s[key] !== null ? [String(s[key])] : []));

/** Known values for a new `decl` element next to `siblings` (the items already there), or undefined. */
export function prefillElement(
  decl: TElementDecl,
  profile: TReportProfile,
  user: Partial<TUser> | null,
  siblings: TContentNode[],
): TContentNode | undefined {
  const type = decl.complex?.name ?? "";
  if (type.endsWith("person_identification") || decl.name === "identification") {
    const used = texts(siblings, "number");
    const doc = user?.documents?.find((d) => d.number && !used.includes(d.number));
    if (!doc) return undefined;
    return { type: identifierCode(decl, doc.type), number: doc.number!, issue_country: doc.country ?? null };
  }
  if (type === "t_address" || decl.name === "address") {
    const a = user?.address;
    const used =
      texts(siblings, "city").includes(a?.city ?? "") && texts(siblings, "address").includes(a?.street ?? "");
    // An address already in the report is not offered twice; the profile's address type still is.
    return addressNode(profile, a?.city && !used ? a : {});
  }
  if (type === "t_phone" || decl.name === "phone") {
    const phone = phoneNode(profile, user?.phone?.phone);
    const used = texts(siblings, "tph_number").includes(String(phone.tph_number));
    return user?.phone?.phone && !used ? phone : phoneNode(profile, undefined);
  }
  if (decl.name === "email" && user?.email?.email && !siblings.includes(user.email.email))
    return user.email.email;
  return undefined;
}
