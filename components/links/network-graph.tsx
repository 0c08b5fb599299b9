"use client";

import type { Core, ElementDefinition } from "cytoscape";
import { useEffect, useId, useMemo, useRef, useState } from "react";
import { canvasLabel, identifierKindLabel } from "@/components/links/identifier-kind";
import type { TNetworkPerson, TUserNetwork } from "@/lib/links/get-user-network";
import { formatEnum } from "@/lib/format";
import { ClientText } from "@/components/ui/format";

type TProps = {
  network: TUserNetwork;
  /** One click (or Enter) on a person opens them. */
  onOpen: (userId: string) => void;
};

const COLORS = {
  anchor: "#1d4ed8",
  active: "#0f766e",
  inactive: "#64748b",
  blocked: "#b91c1c",
  identifier: "#f59e0b",
  counterparty: "#6366f1",
  edge: "#94a3b8",
  focus: "#111827",
};

function personLabel(p: TNetworkPerson): string {
  return canvasLabel(p.name ?? p.userId);
}

/** What the focused person is, in words, for the line under the graph (read out as it changes). */
function describe(p: TNetworkPerson, parties: TUserNetwork["counterparties"]): string {
  const parts = [
    p.depth === 0 ? "this person" : p.depth === 1 ? "linked directly" : "linked in two steps",
    formatEnum(p.status).toLowerCase(),
  ];
  if (p.openCases.length) parts.push(`${p.openCases.length} open case${p.openCases.length === 1 ? "" : "s"}`);
  if (p.fraudTransactions) parts.push("confirmed fraud");
  if (p.sanctionsHits) parts.push(`${p.sanctionsHits} sanctions hit${p.sanctionsHits === 1 ? "" : "s"}`);
  if (p.via.length)
    parts.push(`through ${[...new Set(p.via.map((v) => identifierKindLabel(v.kind)))].join(", ")}`);
  if (p.depth > 0)
    for (const c of parties.filter((x) => x.userId === p.userId))
      parts.push(
        `${c.direction === "sent" ? "paid by this person" : "paid this person"} (${c.transactions} transaction${c.transactions === 1 ? "" : "s"})`,
      );
  return parts.join(", ");
}

/**
 * The network drawn with Cytoscape.js (loaded in the browser only): people as circles, the identifiers
 * they share as small diamonds between them. The keyboard walks the people (arrows, Home, End) and
 * Enter opens the focused one; the table beside it is the full, accessible account of the same data.
 */
export function NetworkGraph({ network, onOpen }: TProps) {
  const box = useRef<HTMLDivElement>(null);
  const cy = useRef<Core | null>(null);
  const [focused, setFocused] = useState(0);
  const [failed, setFailed] = useState(false);
  const hintId = useId();
  const people = network.people;
  const openRef = useRef(onOpen);
  useEffect(() => {
    openRef.current = onOpen;
  }, [onOpen]);

  const elements = useMemo<ElementDefinition[]>(() => {
    const nodes: ElementDefinition[] = people.map((p) => ({
      data: {
        id: `u:${p.userId}`,
        userId: p.userId,
        label: personLabel(p),
        color: p.depth === 0 ? COLORS.anchor : (COLORS[p.status as keyof typeof COLORS] ?? COLORS.active),
        size: p.depth === 0 ? 44 : 32,
        border: p.fraudTransactions > 0 ? 5 : 0,
      },
    }));
    const edges: ElementDefinition[] = [];
    network.identifiers.forEach((idf, i) => {
      if (idf.userIds.length < 2) return;
      const id = `i:${i}`;
      nodes.push({
        data: {
          id,
          label: identifierKindLabel(idf.kind),
          color: COLORS.identifier,
          size: 16,
          border: 0,
        },
        classes: "identifier",
      });
      for (const u of idf.userIds) edges.push({ data: { id: `${id}-${u}`, source: id, target: `u:${u}` } });
    });
    // payments: an arrow from payer to payee, to the person's circle when they are in the view, else to
    // a square of their own (a stored user opens on click; an account or wallet is only shown)
    const anchor = `u:${network.userId}`;
    const inView = new Set(people.map((p) => p.userId));
    network.counterparties.forEach((c, i) => {
      let other = c.userId && inView.has(c.userId) ? `u:${c.userId}` : `c:${i}`;
      if (c.userId === network.userId) other = anchor;
      if (other === `c:${i}`)
        nodes.push({
          data: {
            id: other,
            ...(c.userId ? { userId: c.userId } : {}),
            label: canvasLabel(c.name ?? c.userId ?? c.account ?? c.wallet ?? ""),
            color:
              c.status === "blocked"
                ? COLORS.blocked
                : c.status === "inactive"
                  ? COLORS.inactive
                  : COLORS.counterparty,
            size: 24,
            border: 0,
          },
          classes: "counterparty",
        });
      const [source, target] = c.direction === "sent" ? [anchor, other] : [other, anchor];
      edges.push({
        data: { id: `p:${i}`, source, target, label: `${c.transactions} tx` },
        classes: "payment",
      });
    });
    return [...nodes, ...edges];
  }, [people, network.identifiers, network.counterparties, network.userId]);

  useEffect(() => {
    let cancelled = false;
    import("cytoscape")
      .then(({ default: cytoscape }) => {
        if (cancelled || !box.current) return;
        cy.current?.destroy();
        const instance = cytoscape({
          container: box.current,
          elements,
          // the graph is a picture to click: the keyboard and the table do everything else
          boxSelectionEnabled: false,
          autoungrabify: true,
          userZoomingEnabled: true,
          minZoom: 0.3,
          maxZoom: 2.5,
          style: [
            {
              selector: "node",
              style: {
                "background-color": "data(color)",
                width: "data(size)",
                height: "data(size)",
                label: "data(label)",
                "font-size": 11,
                color: "#0f172a",
                "text-valign": "bottom",
                "text-margin-y": 4,
                "text-background-color": "#ffffff",
                "text-background-opacity": 0.85,
                "text-background-padding": "2px",
                "border-width": "data(border)",
                "border-color": "#7f1d1d",
                "border-style": "double",
              },
            },
            {
              selector: "node.identifier",
              style: { shape: "diamond", "font-size": 9, color: "#78350f" },
            },
            { selector: "edge", style: { width: 1.5, "line-color": COLORS.edge, "curve-style": "straight" } },
            { selector: "node.counterparty", style: { shape: "round-rectangle" } },
            {
              selector: "edge.payment",
              style: {
                "line-style": "dashed",
                "line-color": COLORS.counterparty,
                "target-arrow-shape": "triangle",
                "target-arrow-color": COLORS.counterparty,
                "curve-style": "bezier",
                label: "data(label)",
                "font-size": 9,
                color: "#312e81",
                "text-background-color": "#ffffff",
                "text-background-opacity": 0.85,
              },
            },
            {
              selector: "node.focused",
              style: { "overlay-color": COLORS.focus, "overlay-opacity": 0.18, "overlay-padding": 8 },
            },
          ],
          // rows from the person outwards: what they share, who shares it, and so on; edges never cross a node
          layout: {
            name: "breadthfirst",
            // ids, not a selector: looked up by id, so no user id needs escaping
            roots: [`u:${network.userId}`],
            directed: false,
            spacingFactor: 0.9,
            avoidOverlap: true,
            animate: false,
          },
        });
        instance.on("tap", "node", (e) => {
          const userId = e.target.data("userId") as string | undefined;
          if (userId) openRef.current(userId);
        });
        cy.current = instance;
      })
      .catch(() => setFailed(true));
    return () => {
      cancelled = true;
      cy.current?.destroy();
      cy.current = null;
    };
  }, [elements, network.userId]);

  const index = Math.min(focused, people.length - 1);
  const current = people[index];
  useEffect(() => {
    const instance = cy.current;
    if (!instance || !current) return;
    instance.nodes().removeClass("focused");
    instance.getElementById(`u:${current.userId}`).addClass("focused");
  }, [current]);

  return (
    <div className="min-w-0">
      <div
        ref={box}
        role="application"
        aria-roledescription="network graph"
        aria-label={`Network graph of ${people.length} people`}
        aria-describedby={hintId}
        tabIndex={0}
        data-testid="network-graph"
        className="h-80 w-full rounded-md border border-slate-200 bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600"
        onKeyDown={(e) => {
          const n = people.length;
          if (!n) return;
          const move: Record<string, number> = {
            ArrowRight: index + 1,
            ArrowDown: index + 1,
            ArrowLeft: index - 1,
            ArrowUp: index - 1,
            Home: 0,
            End: n - 1,
          };
          if (e.key in move) {
            e.preventDefault();
            setFocused((((move[e.key] ?? 0) % n) + n) % n);
          } else if ((e.key === "Enter" || e.key === " ") && current) {
            e.preventDefault();
            onOpen(current.userId);
          }
        }}
      />
      <p id={hintId} className="mt-1 text-xs text-slate-600">
        Arrow keys move between people, Enter opens the one in focus. Circles are people (red blocked, grey
        inactive, a double ring confirmed fraud); diamonds are what they share; dashed arrows are payments,
        from payer to payee, squares the counterparties not linked otherwise.
      </p>
      {failed ? (
        <p className="mt-1 text-sm text-red-700">
          The graph could not be drawn; the table lists the same people.
        </p>
      ) : (
        current && (
          <p
            className="mt-1 text-sm text-slate-800 [overflow-wrap:anywhere]"
            aria-live="polite"
            data-testid="graph-focus"
          >
            In focus: <ClientText className="font-medium" value={current.name ?? current.userId} /> (
            {describe(current, network.counterparties)})
          </p>
        )
      )}
    </div>
  );
}
