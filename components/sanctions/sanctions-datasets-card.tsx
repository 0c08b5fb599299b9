import { Card, DateTime } from "@/components/ui";
import { formatNumber } from "@/lib/format";
import type { TSanctionsDatasetSummary } from "@/lib/sanctions/list-sanctions-datasets";

/** Settings: the sanctions lists the operator loaded (shared by every client, read-only here). */
export function SanctionsDatasetsCard({ datasets }: { datasets: TSanctionsDatasetSummary[] }) {
  return (
    <Card title="Sanctions lists" className="mt-6">
      <p className="mb-3 text-xs text-slate-600">
        Loaded by the operator with <code>npm run cli -- sanctions import FILE</code> and shared by all
        clients. Rules read them with <code>sanctionsScore(name)</code> or{" "}
        <code>sanctionsScore(name, birthDate)</code>.
      </p>
      {datasets.length === 0 ? (
        <p className="text-sm text-slate-600">No sanctions list is loaded: sanctionsScore() returns 0.</p>
      ) : (
        <table className="w-full text-left text-sm" data-testid="sanctions-datasets">
          <thead className="text-xs text-slate-600">
            <tr>
              <th className="py-1 font-medium">Dataset</th>
              <th className="py-1 font-medium">Format</th>
              <th className="py-1 font-medium">File</th>
              <th className="py-1 text-right font-medium">Entities</th>
              <th className="py-1 text-right font-medium">Names</th>
              <th className="py-1 pl-4 font-medium">Loaded</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {datasets.map((d) => (
              <tr key={d.dataset}>
                <td className="py-1.5 font-mono text-xs">{d.dataset}</td>
                <td className="py-1.5">{d.format === "ofac" ? "OFAC SDN" : "OpenSanctions"}</td>
                <td className="py-1.5 font-mono text-xs">{d.sourceFile}</td>
                <td className="py-1.5 text-right tabular-nums">{formatNumber(d.entities)}</td>
                <td className="py-1.5 text-right tabular-nums">{formatNumber(d.names)}</td>
                <td className="py-1.5 pl-4 text-xs">
                  <DateTime value={d.loadedAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}
