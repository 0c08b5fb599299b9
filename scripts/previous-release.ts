// The previous release, built beside this checkout, for the rolling-upgrade test (e2e/rolling.spec.ts).
//
//   npx tsx scripts/previous-release.ts            # prints the folder of the built previous release
//
// "Previous release" is a git ref: PREVIOUS_RELEASE_REF (a tag, a branch, a commit), by default the
// commit in scripts/previous-release.ref (the last release, moved on at each release). It is checked out with
// `git worktree add --detach` into .tools/previous-release/<commit>, installed (`npm install
// --prefer-offline`, from npm's cache when it can) and built (`next build`) there, once: a rerun with
// the same commit finds the build and takes no time. Remove the folder with
// `git worktree remove --force .tools/previous-release/<commit>`.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

export type TPreviousRelease = { ref: string; commit: string; dir: string };

const git = (...args: string[]) => execFileSync("git", args, { encoding: "utf8" }).trim();

const RECORDED_RELEASE = path.join("scripts", "previous-release.ref");

/** The commit of the previous release: PREVIOUS_RELEASE_REF, or the one scripts/previous-release.ref records. */
export function previousReleaseCommit(ref = process.env.PREVIOUS_RELEASE_REF): {
  ref: string;
  commit: string;
} {
  const name = ref || readFileSync(RECORDED_RELEASE, "utf8").trim();
  return { ref: name, commit: git("rev-parse", "--verify", `${name}^{commit}`) };
}

/** Whether the previous release already has versioned jobs (job protocol 2 and its expand migration). */
export function hasVersionedJobs(dir: string): boolean {
  return existsSync(path.join(dir, "prisma", "migrations", "20261126220000_job_versions"));
}

/** Checks out, installs and builds the previous release once per commit; returns its folder. */
export function preparePreviousRelease(
  options: { ref?: string; log?: (line: string) => void } = {},
): TPreviousRelease {
  const log = options.log ?? ((line: string) => console.error(line));
  const { ref, commit } = previousReleaseCommit(options.ref);
  const dir = path.resolve(".tools", "previous-release", commit);
  const ready = path.join(dir, ".previous-release-built");
  if (existsSync(ready)) return { ref, commit, dir };
  if (!existsSync(dir)) {
    mkdirSync(path.dirname(dir), { recursive: true });
    log(`previous release ${ref} (${commit.slice(0, 12)}): git worktree add ${dir}`);
    git("worktree", "add", "--detach", dir, commit);
  }
  const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
  const run = (command: string, args: string[]) => {
    log(`previous release: ${command} ${args.join(" ")}`);
    execFileSync(command, args, { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
  };
  run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline"]);
  run("npx", ["next", "build"]);
  writeFileSync(ready, `${commit}\n`);
  return { ref, commit, dir };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) console.log(preparePreviousRelease().dir);
