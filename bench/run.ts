// npm run bench: the screening benchmark, then the sanctions benchmark, each in its own process.
import { spawnSync } from "node:child_process";

for (const script of ["bench/screening.ts", "bench/sanctions.ts"]) {
  console.log(`\n=== ${script}`);
  const run = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", script], { stdio: "inherit" });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
