// Summarises a .cpuprofile: self time by source file group and by function, and total (inclusive) time of
// the functions matching PROFILE_FOCUS (a regex). npx tsx bench/cpuprofile-summary.ts <file> [top]
import { readFileSync } from "node:fs";

type TNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
};
const profile = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as {
  nodes: TNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
};
const top = Number(process.argv[3] ?? 40);
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map<number, number>();
profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
const idle = [...selfUs].filter(([id]) => byId.get(id)!.callFrame.functionName === "(idle)");
const idleUs = idle.reduce((a, [, us]) => a + us, 0);
console.log(`profile ${(total / 1e6).toFixed(1)} s, busy ${((total - idleUs) / 1e6).toFixed(1)} s`);

function group(url: string): string {
  if (!url) return "(native/gc)";
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1]!;
  if (url.startsWith("node:")) return url.split("/")[0]!;
  const chunk = /\.next\/server\/(.*)/.exec(url);
  if (chunk) return `.next/${chunk[1]!.replace(/[0-9a-f]{8,}/g, "*")}`;
  return url.replace(/^file:\/\/\/work\/[^/]+\//, "");
}
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const print = (title: string, m: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(
      `${((us / (total - idleUs)) * 100).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(7)} ms  ${k}`,
    );
};
const groups = new Map<string, number>();
const fns = new Map<string, number>();
for (const [id, us] of selfUs) {
  const n = byId.get(id)!;
  if (n.callFrame.functionName === "(idle)") continue;
  const g = group(n.callFrame.url);
  groups.set(g, (groups.get(g) ?? 0) + us);
  const f = `${n.callFrame.functionName || "(anon)"} ${g}:${n.callFrame.lineNumber}`;
  fns.set(f, (fns.get(f) ?? 0) + us);
}
print("self time by file group", groups);
print("self time by function", fns);

// inclusive: for each sample, walk to the root, count each distinct function (name+group) once
const focus = process.env.PROFILE_FOCUS ? new RegExp(process.env.PROFILE_FOCUS) : null;
const incl = new Map<string, number>();
for (const [id, us] of selfUs) {
  if (byId.get(id)!.callFrame.functionName === "(idle)") continue;
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const n = byId.get(cur)!;
    const key = `${n.callFrame.functionName || "(anon)"} ${group(n.callFrame.url)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (!focus || focus.test(key)) incl.set(key, (incl.get(key) ?? 0) + us);
  }
}
print("inclusive time by function", incl);
