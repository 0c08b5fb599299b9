"use client";

import dynamic from "next/dynamic";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useMemo, useState } from "react";
import { errorMessage } from "@/components/api/client";
import { useMergeCases, useRingStatus, useUserNetwork } from "@/components/links/hooks";
import { identifierKindLabel, NETWORK_KINDS } from "@/components/links/identifier-kind";
import type { TNetworkFilters } from "@/components/links/query-keys";
import { UserStatusBadge } from "@/components/users/users-table";
import { Badge, Button, DateTime, DoneNote, LevelBadge, NoteDialog } from "@/components/ui";
import { inputClass } from "@/components/ui/styles";
import type { TNetworkCounterparty, TNetworkPerson } from "@/lib/links/get-user-network";
import { formatCount, formatEnum, revealInvisible } from "@/lib/format";
import { ClientText } from "@/components/ui/format";

// Cytoscape draws on a canvas with browser APIs: it is never part of the server render.
const NetworkGraph = dynamic(() => import("@/components/links/network-graph").then((m) => m.NetworkGraph), {
  ssr: false,
  loading: () => <div className="h-80 rounded-md border border-slate-200 bg-slate-50" />,
});

const DAY = 86_400_000;
const SINCE = [
  { value: "", label: "Any time" },
  { value: "7", label: "Last 7 days" },
  { value: "30", label: "Last 30 days" },
  { value: "90", label: "Last 90 days" },
  { value: "365", label: "Last 12 months" },
];

type TAction = "blocked" | "inactive" | "merge";

const personPath = (userId: string) => `/dashboard/users/${encodeURIComponent(userId)}`;
const casePath = (caseId: string) => `/dashboard/cases/${encodeURIComponent(caseId)}`;

function PersonLabel({ p }: { p: Pick<TNetworkPerson, "name" | "userId"> }) {
  return <ClientText value={p.name ?? p.userId} />;
}

/**
 * Who a user is linked to, as a graph and as a table (the table is the primary, accessible account):
 * filters by identifier kind and time, one click to open a person, and the ring actions: block or set
 * inactive the selected people with one note, and (on a case) merge their open cases into this one.
 */
export function NetworkView({
  userId,
  canAct,
  caseId,
}: {
  userId: string;
  /** May change users' status (users.review). */
  canAct: boolean;
  /** On an open case a reviewer works: the case linked people's open cases can be merged into. */
  caseId?: string;
}) {
  const router = useRouter();
  const [depth, setDepth] = useState<"1" | "2">("1");
  const [kinds, setKinds] = useState<string[]>(NETWORK_KINDS);
  const [sinceDays, setSinceDays] = useState("");
  const [since, setSince] = useState("");
  const filters: TNetworkFilters = {
    depth,
    kinds: kinds.length === NETWORK_KINDS.length ? "" : kinds.join(","),
    since,
  };
  const noKinds = kinds.length === 0;
  const query = useUserNetwork(userId, filters, { enabled: !noKinds });
  const network = noKinds ? undefined : query.data;
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [action, setAction] = useState<TAction | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const ring = useRingStatus(userId);
  const merge = useMergeCases(caseId ?? "");

  const open = useCallback((id: string) => router.push(personPath(id)), [router]);
  const people = useMemo(() => network?.people ?? [], [network]);
  const chosen = people.filter((p) => selected.has(p.userId));
  const touchedCases = chosen.flatMap((p) => p.openCases.map((c) => ({ ...c, person: p })));
  const mergeable = touchedCases.filter((c) => c.id !== caseId);
  const toggle = (id: string, on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const close = () => {
    setAction(null);
    ring.reset();
    merge.reset();
  };
  const linked = people.filter((p) => p.depth > 0);
  const parties = network?.counterparties ?? [];
  const paymentsOf = (id: string) => parties.filter((c) => c.userId === id);

  return (
    <section aria-labelledby="network-title" className="space-y-3" data-testid="network-view">
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex flex-col gap-1 text-xs font-medium text-slate-700">
          Reach
          <select
            className={inputClass}
            value={depth}
            onChange={(e) => setDepth(e.target.value as "1" | "2")}
          >
            <option value="1">Direct links</option>
            <option value="2">Up to two steps</option>
          </select>
        </label>
        <label className="flex flex-col gap-1 text-xs font-medium text-slate-700">
          Linked since
          <select
            className={inputClass}
            value={sinceDays}
            onChange={(e) => {
              setSinceDays(e.target.value);
              // fixed when chosen, so the query (and its cache key) does not move with the clock
              setSince(e.target.value ? String(Date.now() - Number(e.target.value) * DAY) : "");
            }}
          >
            {SINCE.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <fieldset className="min-w-0">
          <legend className="text-xs font-medium text-slate-700">Linked through</legend>
          <div className="mt-1 flex flex-wrap gap-x-3 gap-y-1">
            {NETWORK_KINDS.map((k) => (
              <label key={k} className="flex items-center gap-1 text-sm text-slate-800">
                <input
                  type="checkbox"
                  checked={kinds.includes(k)}
                  onChange={(e) =>
                    setKinds((ks) => (e.target.checked ? [...ks, k] : ks.filter((x) => x !== k)))
                  }
                />
                {identifierKindLabel(k)}
              </label>
            ))}
          </div>
        </fieldset>
        {query.isFetching && (
          <span className="pb-2 text-xs text-slate-600" role="status">
            Loading…
          </span>
        )}
      </div>

      {noKinds && <p className="text-sm text-slate-700">Choose at least one kind of identifier.</p>}
      {query.error && !noKinds && (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
          {errorMessage(query.error)}
        </p>
      )}

      {network && (
        <>
          <p className="text-sm text-slate-700" data-testid="network-summary">
            {linked.length === 0 && parties.length === 0
              ? "No one is linked to this person with these filters."
              : `${[
                  linked.length > 0 &&
                    `${formatCount(linked.length, "linked person", "linked people")}${
                      network.truncated ? " (the first shown; narrow the filters to see the others)" : ""
                    }`,
                  parties.length > 0 &&
                    `${formatCount(parties.length, "counterparty", "counterparties")}${
                      network.counterpartiesTruncated ? " (those with the most transactions)" : ""
                    }`,
                ]
                  .filter(Boolean)
                  .join(" and ")}.`}
          </p>
          {network.capped.length > 0 && (
            <div className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
              <p className="font-medium">
                Too widely shared to link anyone (more than {network.fanOutCap} people):
              </p>
              <ul className="mt-1 space-y-0.5" data-testid="network-capped">
                {network.capped.map((c) => (
                  <li key={`${c.kind}:${c.value}`} className="[overflow-wrap:anywhere]">
                    {identifierKindLabel(c.kind)} <ClientText className="font-mono text-xs" value={c.value} />
                    : shared by {formatCount(c.users, "user")}, not used for links
                  </li>
                ))}
              </ul>
            </div>
          )}
          {(linked.length > 0 || parties.length > 0) && <NetworkGraph network={network} onOpen={open} />}

          {canAct && (
            <div className="flex flex-wrap items-center gap-2" data-testid="ring-actions">
              <span className="text-sm text-slate-700" aria-live="polite">
                {formatCount(chosen.length, "person", "people")} selected
              </span>
              <Button
                variant="danger"
                disabled={chosen.length === 0}
                onClick={() => {
                  setDone(null);
                  setAction("blocked");
                }}
              >
                Block selected
              </Button>
              <Button
                variant="secondary"
                disabled={chosen.length === 0}
                onClick={() => {
                  setDone(null);
                  setAction("inactive");
                }}
              >
                Set selected inactive
              </Button>
              {caseId && (
                <Button
                  variant="secondary"
                  disabled={mergeable.length === 0}
                  onClick={() => {
                    setDone(null);
                    setAction("merge");
                  }}
                >
                  Merge their open cases into this case
                </Button>
              )}
            </div>
          )}
          {done && <DoneNote>{done}</DoneNote>}

          <table className="w-full table-fixed text-sm" data-testid="network-table">
            <caption className="sr-only">People linked to this person, with how they are linked</caption>
            <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
              <tr>
                {canAct && (
                  <th scope="col" className="w-10 px-2 py-2">
                    <span className="sr-only">Select</span>
                  </th>
                )}
                <th scope="col" className="w-[26%] px-2 py-2">
                  Person
                </th>
                <th scope="col" className="w-[18%] px-2 py-2">
                  Status and risk
                </th>
                <th scope="col" className="w-[16%] px-2 py-2">
                  Open cases
                </th>
                <th scope="col" className="px-2 py-2">
                  Linked through
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {people.map((p) => (
                <tr key={p.userId} data-testid="network-row" data-user-id={p.userId} className="align-top">
                  {canAct && (
                    <td className="px-2 py-2">
                      <input
                        type="checkbox"
                        aria-label={`Select ${p.name ?? p.userId}`}
                        checked={selected.has(p.userId)}
                        onChange={(e) => toggle(p.userId, e.target.checked)}
                      />
                    </td>
                  )}
                  <th scope="row" className="min-w-0 px-2 py-2 text-left font-normal">
                    {/* three lines at most: a name of hundreds of letters would push the ring off screen */}
                    <Link
                      href={personPath(p.userId)}
                      title={(p.name ?? p.userId).length > 60 ? (p.name ?? p.userId) : undefined}
                      className="line-clamp-3 font-medium text-brand-700 [overflow-wrap:anywhere] hover:underline"
                    >
                      <PersonLabel p={p} />
                    </Link>
                    <span className="block font-mono text-xs text-slate-600 [overflow-wrap:anywhere]">
                      <ClientText value={p.userId} />
                    </span>
                    <span className="block text-xs text-slate-700">
                      {p.depth === 0 ? "This person" : p.depth === 1 ? "Direct link" : "Two steps away"}
                    </span>
                  </th>
                  <td className="px-2 py-2">
                    <div className="flex flex-wrap gap-1">
                      <UserStatusBadge status={p.status} />
                      {p.riskLevel && <LevelBadge level={p.riskLevel} />}
                      {p.fraudTransactions > 0 && (
                        <Badge tone="red">{formatCount(p.fraudTransactions, "fraud transaction")}</Badge>
                      )}
                      {p.sanctionsHits > 0 && (
                        <Badge tone="amber">{formatCount(p.sanctionsHits, "sanctions hit")}</Badge>
                      )}
                    </div>
                  </td>
                  <td className="px-2 py-2">
                    {p.openCases.length === 0 ? (
                      <span className="text-slate-600">None</span>
                    ) : (
                      <ul className="space-y-0.5">
                        {p.openCases.map((c) => (
                          <li key={c.id}>
                            {c.id === caseId ? (
                              <span className="text-slate-700">This case</span>
                            ) : (
                              <Link className="text-brand-700 underline" href={casePath(c.id)}>
                                {formatEnum(c.priority)} case
                              </Link>
                            )}{" "}
                            <span className="text-xs text-slate-600">
                              ({formatEnum(c.status).toLowerCase()}, {formatCount(c.alertCount, "alert")})
                            </span>
                          </li>
                        ))}
                      </ul>
                    )}
                  </td>
                  <td className="min-w-0 px-2 py-2">
                    {p.via.length === 0 && (p.depth === 0 || paymentsOf(p.userId).length === 0) ? (
                      <span className="text-slate-600">—</span>
                    ) : (
                      <ul className="space-y-0.5">
                        {p.via.map((v) => (
                          <li key={`${v.kind}:${v.value}`} className="[overflow-wrap:anywhere]">
                            <span className="font-medium">{identifierKindLabel(v.kind)}</span>{" "}
                            <ClientText className="font-mono text-xs" value={v.value} />
                            <span className="block text-xs text-slate-600">
                              Shared since <DateTime dateOnly value={v.since} /> ·{" "}
                              {formatCount(v.transactions, "transaction")} · last used{" "}
                              <DateTime dateOnly value={v.lastUsedAt} />
                            </span>
                          </li>
                        ))}
                        {p.depth > 0 &&
                          paymentsOf(p.userId).map((c) => (
                            <li key={`counterparty:${c.direction}`}>
                              <span className="font-medium">{identifierKindLabel("counterparty")}</span>{" "}
                              {directionLabel(c.direction)}
                              <span className="block text-xs text-slate-600">
                                {formatCount(c.transactions, "transaction")} · last{" "}
                                <DateTime dateOnly value={c.lastAt} />
                              </span>
                            </li>
                          ))}
                      </ul>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {parties.length > 0 && <CounterpartiesTable parties={parties} />}
        </>
      )}

      <NoteDialog
        open={action === "blocked" || action === "inactive"}
        onClose={close}
        title={action === "blocked" ? "Block the selected people" : "Set the selected people inactive"}
        testId="ring-dialog"
        size="lg"
        intro={<Impact people={chosen} cases={touchedCases} action={action} />}
        noteLabel={action === "blocked" ? "Why block them?" : "Why set them inactive?"}
        requiredMessage="Write why: the note is recorded on each person and sent with the block."
        optionLabel={action === "blocked" ? <>Also confirm their open alerts with this reason</> : undefined}
        submitLabel={
          action === "blocked" ? `Block ${formatCount(chosen.length, "person", "people")}` : "Set inactive"
        }
        danger={action === "blocked"}
        pending={ring.isPending}
        error={ring.error}
        onSubmit={({ note, option }) => {
          if (action !== "blocked" && action !== "inactive") return;
          ring.mutate(
            { userIds: chosen.map((p) => p.userId), status: action, note, closeAlerts: option },
            {
              onSuccess: (r) => {
                const changed = r.users.filter((u) => u.changed).length;
                const alerts = r.users.reduce((n, u) => n + u.alertsClosed, 0);
                setDone(
                  `${formatCount(changed, "person", "people")} ${r.status === "blocked" ? "blocked" : "set inactive"}` +
                    (changed < r.users.length ? ` (${r.users.length - changed} already were)` : "") +
                    (alerts ? `; ${formatCount(alerts, "open alert")} confirmed` : "") +
                    (r.caseIds.length ? `; noted on ${formatCount(r.caseIds.length, "open case")}` : "") +
                    ".",
                );
                setSelected(new Set());
                close();
                router.refresh();
              },
            },
          );
        }}
      />
      {caseId && (
        <NoteDialog
          open={action === "merge"}
          onClose={close}
          title="Merge linked cases into this case"
          testId="merge-dialog"
          size="lg"
          intro={<Impact people={[]} cases={mergeable} action="merge" />}
          noteLabel="Why merge them?"
          requiredMessage="Write why: the note is recorded on every case."
          submitLabel={`Merge ${formatCount(mergeable.length, "case")}`}
          pending={merge.isPending}
          error={merge.error}
          onSubmit={({ note }) =>
            merge.mutate(
              { caseIds: mergeable.map((c) => c.id), note },
              {
                onSuccess: (r) => {
                  setDone(
                    `${formatCount(r.merged.length, "case")} merged into this one (${formatCount(r.alertsMoved, "alert")} moved).`,
                  );
                  setSelected(new Set());
                  close();
                  router.refresh();
                },
              },
            )
          }
        />
      )}
    </section>
  );
}

function directionLabel(direction: TNetworkCounterparty["direction"]): string {
  return direction === "sent" ? "paid by this person" : "paid this person";
}

/** Who the person paid and who paid them: the payments that link them, beside the shared identifiers. */
function CounterpartiesTable({ parties }: { parties: TNetworkCounterparty[] }) {
  return (
    <table className="w-full table-fixed text-sm" data-testid="network-counterparties">
      <caption className="px-2 pb-1 text-left text-sm font-medium text-slate-800">
        Linked by counterparty: who this person paid and who paid them
      </caption>
      <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
        <tr>
          <th scope="col" className="w-[40%] px-2 py-2">
            Counterparty
          </th>
          <th scope="col" className="w-[20%] px-2 py-2">
            Direction
          </th>
          <th scope="col" className="px-2 py-2">
            Transactions
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {parties.map((c) => (
          <tr
            key={`${c.direction}:${c.userId ?? ""}:${c.account ?? ""}:${c.wallet ?? ""}`}
            data-testid="counterparty-row"
            data-party-user-id={c.userId ?? undefined}
            className="align-top"
          >
            <th scope="row" className="min-w-0 px-2 py-2 text-left font-normal">
              {c.userId ? (
                <>
                  <Link
                    href={personPath(c.userId)}
                    title={(c.name ?? c.userId).length > 60 ? (c.name ?? c.userId) : undefined}
                    className="line-clamp-3 font-medium text-brand-700 [overflow-wrap:anywhere] hover:underline"
                  >
                    <ClientText value={c.name ?? c.userId} />
                  </Link>
                  <span className="block font-mono text-xs text-slate-600 [overflow-wrap:anywhere]">
                    <ClientText value={c.userId} />
                  </span>
                  {c.status && <UserStatusBadge status={c.status} />}
                </>
              ) : (
                <>
                  <span className="block text-xs text-slate-700">{c.account ? "Account" : "Wallet"}</span>
                  <span
                    className="line-clamp-3 font-mono text-xs [overflow-wrap:anywhere]"
                    title={
                      (c.account ?? c.wallet ?? "").length > 60
                        ? revealInvisible(c.account ?? c.wallet ?? "")
                        : undefined
                    }
                  >
                    <ClientText value={c.account ?? c.wallet} />
                  </span>
                </>
              )}
            </th>
            <td className="px-2 py-2">{directionLabel(c.direction)}</td>
            <td className="px-2 py-2">
              {formatCount(c.transactions, "transaction")}
              <span className="block text-xs text-slate-600">
                <DateTime dateOnly value={c.firstAt} /> to <DateTime dateOnly value={c.lastAt} />
              </span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** What an action will touch, said before it is taken. */
function Impact({
  people,
  cases,
  action,
}: {
  people: TNetworkPerson[];
  cases: (TNetworkPerson["openCases"][number] & { person: TNetworkPerson })[];
  action: TAction | null;
}) {
  return (
    <div className="space-y-2" data-testid="ring-impact">
      {action !== "merge" && (
        <>
          <p>
            {action === "blocked"
              ? "Each person is blocked exactly as a single block: screening sees them as blocked from now on and subscribers get user.status.block for each."
              : "Screening sees each person as inactive from now on. No webhook is sent for this change."}{" "}
            This touches <strong>{formatCount(people.length, "person", "people")}</strong>:
          </p>
          <ul
            className="max-h-32 list-disc overflow-y-auto pl-5 [overflow-wrap:anywhere]"
            tabIndex={0}
            aria-label="People touched"
          >
            {people.map((p) => (
              <li key={p.userId}>
                <ClientText value={p.name ?? p.userId} /> ({formatEnum(p.status).toLowerCase()})
              </li>
            ))}
          </ul>
        </>
      )}
      <p>
        {cases.length === 0
          ? "No open case is touched."
          : action === "merge"
            ? `Their alerts move to this case and ${formatCount(cases.length, "case")} closes, saying where it went:`
            : `${formatCount(cases.length, "open case")} get a line in their history:`}
      </p>
      {cases.length > 0 && (
        <ul
          className="max-h-32 list-disc overflow-y-auto pl-5 [overflow-wrap:anywhere]"
          tabIndex={0}
          aria-label="Open cases touched"
        >
          {cases.map((c) => (
            <li key={c.id}>
              {formatEnum(c.priority)} case of <ClientText value={c.person.name ?? c.person.userId} /> (
              {formatCount(c.alertCount, "alert")})
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
