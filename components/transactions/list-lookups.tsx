// The decision's inList lookups: which list each value was looked up in and the entry it matched.
import type { TListLookup } from "@/lib/lists/in-list";

export function ListLookups({ lookups }: { lookups: TListLookup[] }) {
  if (lookups.length === 0) return null;
  return (
    <section data-testid="list-lookups">
      <h3 className="mb-2 text-sm font-semibold">List lookups ({lookups.length})</h3>
      <ul className="space-y-1 text-sm text-slate-700">
        {lookups.map((l) => (
          <li key={`${l.list}\u0000${l.value}`}>
            <code className="font-mono text-xs">{l.value || "(empty)"}</code> in{" "}
            <code className="font-mono text-xs">{l.list}</code>:{" "}
            {l.matched === null ? (
              "not in the list"
            ) : (
              <span className="font-medium text-red-800">
                matched entry <code className="font-mono text-xs">{l.matched}</code>
              </span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
