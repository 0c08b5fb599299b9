// Client lists (docs/decisions.md §10): CLI import/export, inList in rules (emails, countries, IPv4/IPv6
// CIDRs, expiry), unknown lists refused at import, admin routes (audited), and a change seen by the
// very next screening.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";

const session = vi.hoisted(() => ({ current: null as null | { user: { id: string } } }));
vi.mock("next-auth", async (importOriginal) => ({
  ...(await importOriginal<typeof import("next-auth")>()),
  getServerSession: () => Promise.resolve(session.current),
}));

const transactionRoute = await import("@/app/v1/transaction/route");
const listsRoute = await import("@/app/dashboard-api/lists/route");
const entriesRoute = await import("@/app/dashboard-api/lists/[listId]/entries/route");
const entryRoute = await import("@/app/dashboard-api/lists/[listId]/entries/[entryId]/route");
const uploadRoute = await import("@/app/dashboard-api/lists/[listId]/upload/route");
const downloadRoute = await import("@/app/dashboard-api/lists/[listId]/download/route");
const { createDashboardUser } = await import("@/lib/dashboard-users/create-dashboard-user");
const { prisma } = await import("@/lib/db");
const { importRules, RuleImportError } = await import("@/lib/rules/import-rules");
const { replayDecision } = await import("@/lib/screening/replay-decision");
const { call, createTestClient } = await import("@/tests/factories");

// tests that spawn the CLI (a few seconds each on a loaded machine)
const CLI_TIMEOUT = 240_000;
const dir = mkdtempSync(path.join(tmpdir(), "lists-test-"));

function cli(...args: string[]) {
  const res = spawnSync("npx", ["tsx", "lib/cli/main.ts", ...args], { encoding: "utf8", timeout: 60_000 });
  let json: any = null;
  try {
    json = JSON.parse(res.stdout);
  } catch {
    // not JSON
  }
  return { code: res.status, stdout: res.stdout, stderr: res.stderr, json };
}

/** The CLI's own command handler in this process (the spawned CLI costs seconds on a loaded machine). */
async function cliInProcess(...argv: string[]): Promise<{ json: unknown; error: string | null }> {
  const { parseArgs } = await import("@/lib/cli/args");
  const { describeError, extraCommands } = await import("@/lib/cli/commands");
  await import("@/lib/cli/register");
  const args = parseArgs(argv);
  const command = extraCommands[`${args.positionals[0]} ${args.positionals[1]}`]!;
  args.positionals = args.positionals.slice(2);
  try {
    return { json: await command(args), error: null };
  } catch (err) {
    return { json: null, error: describeError(err) };
  }
}

function csv(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

const rule = (id: string, condition: string) => ({
  id,
  name: id,
  subject: "transaction",
  status: "active",
  riskLevel: "high",
  recommendedAction: "REVIEW",
  reason: id,
  condition,
});

type TClient = { clientId: string; apiKey: string };
let client: TClient;
let adminId: string;
let reviewerId: string;
const HOUR = 3_600_000;
let seq = 0;

async function screen(c: TClient, body: Record<string, unknown>) {
  const id = `tx-${++seq}`;
  const res = await call(transactionRoute.POST, {
    apiKey: c.apiKey,
    body: {
      id,
      userId: "u1",
      status: "APPROVED",
      currencyCode: "USD",
      amount: 10,
      timestamp: Date.now() - HOUR,
      ...body,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const row = await prisma.transaction.findUniqueOrThrow({
    where: { clientId_id: { clientId: c.clientId, id } },
  });
  const decision = await prisma.decision.findUniqueOrThrow({ where: { id: row.decisionId! } });
  const evaluated = decision.evaluated as Array<{ ruleId: string; triggered: boolean; error?: string }>;
  return {
    decisionId: decision.id,
    fired: evaluated.filter((e) => e.triggered).map((e) => e.ruleId),
    errors: evaluated.filter((e) => e.error).map((e) => `${e.ruleId}: ${e.error}`),
    lookups: (decision.input as { lists?: unknown[] }).lists ?? [],
  };
}

function asAdmin(id = adminId) {
  session.current = { user: { id } };
}

beforeAll(async () => {
  client = await createTestClient({ name: "Lists" });
  adminId = (
    await createDashboardUser({
      clientId: client.clientId,
      email: "admin@lists.test",
      password: "a-long-password-1",
      role: "admin",
    })
  ).userId;
  reviewerId = (
    await createDashboardUser({
      clientId: client.clientId,
      email: "rev@lists.test",
      password: "a-long-password-1",
      role: "reviewer",
    })
  ).userId;
  const imports = [
    [
      "emails",
      "email",
      "value,note,expiresAt\n  Mule@Example.COM ,confirmed mule,\nold@example.com,expired,1000\n" +
        `future@example.com,until later,${Date.now() + 86_400_000}\n`,
    ],
    ["countries", "country", "value\nir\nKP\n"],
    ["ips", "ip", "value,note\n10.0.0.0/8,internal\n2001:db8::/32,documentation v6\n198.51.100.7,single\n"],
  ] as const;
  for (const [name, kind, text] of imports) {
    const res = cli(
      "lists",
      "import",
      "--client",
      client.clientId,
      "--list",
      name,
      "--kind",
      kind,
      csv(`${name}.csv`, text),
    );
    expect(res.code, res.stderr).toBe(0);
  }
  await importRules({
    clientId: client.clientId,
    rules: [
      rule("L-EMAIL", 'inList("emails", transaction.?user.?email.?email.orValue(""))'),
      rule("L-COUNTRY", 'inList("countries", transaction.?card.?binCountry.orValue(""))'),
      rule("L-IP", 'inList("ips", transaction.?userDevice.?ipAddress.orValue(""))'),
    ],
  });
});

describe("lists CLI", () => {
  it(
    "imports and exports in the contract's shapes, and an export re-imports to the same list",
    async () => {
      const exported = cli("lists", "export", "--client", client.clientId, "--list", "emails");
      expect(exported.code, exported.stderr).toBe(0);
      expect(exported.json).toEqual({
        list: "emails",
        kind: "email",
        entries: [
          { value: "future@example.com", note: "until later", expiresAt: expect.any(Number) },
          { value: "Mule@Example.COM", note: "confirmed mule", expiresAt: null },
          { value: "old@example.com", note: "expired", expiresAt: 1000 },
        ],
      });
      const rows = exported.json.entries.map((e: any) => `${e.value},${e.note},${e.expiresAt ?? ""}`);
      const file = csv("roundtrip.csv", ["value,note,expiresAt", ...rows].join("\n"));
      const imported = cli(
        "lists",
        "import",
        "--client",
        client.clientId,
        "--list",
        "copy",
        "--kind",
        "email",
        file,
      );
      expect(imported.json).toEqual({ list: "copy", entries: 3 });
      const again = cli("lists", "export", "--client", client.clientId, "--list", "copy");
      expect(again.json).toEqual({ ...exported.json, list: "copy" });
      // --replace swaps the entries in one transaction
      const replaced = cli(
        "lists",
        "import",
        "--client",
        client.clientId,
        "--list",
        "copy",
        "--replace",
        csv("one.csv", "value\nnew@example.com\n"),
      );
      expect(replaced.json).toEqual({ list: "copy", entries: 1 });
      expect(cli("lists", "export", "--client", client.clientId, "--list", "copy").json.entries).toEqual([
        { value: "new@example.com", note: null, expiresAt: null },
      ]);
    },
    CLI_TIMEOUT,
  );

  it(
    "fails the whole import on a bad row, naming the line, and changes nothing",
    async () => {
      const count = () => prisma.listEntry.count({ where: { clientId: client.clientId } });
      const before = await count();
      for (const [kind, text, message] of [
        ["email", "value\nok@example.com\nnot-an-email\n", /line 3: 'not-an-email' is not an email address/],
        [
          "ip",
          "value\n10.0.0.0/8\n10.0.0.1/8\n",
          /line 3: '10.0.0.1\/8' has host bits set; did you mean 10.0.0.0\/8\?/,
        ],
        ["ip", "value\n2001:db8::/129\n", /line 2: .*prefix length/],
        ["country", "value\nUS\nXX\n", /line 3: 'XX' is not an ISO 3166-1 alpha-2 country code/],
        ["email", "value,expiresAt\na@example.com,tomorrow\n", /line 2: expiresAt 'tomorrow'/],
        ["email", "value\na@example.com\n A@EXAMPLE.com\n", /line 3: .*same entry as line 2/],
        ["email", "email\na@example.com\n", /line 1: .*'value' column/],
      ] as const) {
        const res = await cliInProcess(
          "lists",
          "import",
          "--client",
          client.clientId,
          "--list",
          "broken",
          "--kind",
          kind,
          csv("bad.csv", text),
        );
        expect(res.json, text).toBeNull();
        expect(res.error, text).toMatch(message);
        expect(res.error, text).toMatch(/^nothing imported; bad.csv line/);
      }
      // and as the operator sees it: exit code 1, the reason on stderr, nothing on stdout
      const res = cli(
        "lists",
        "import",
        "--client",
        client.clientId,
        "--list",
        "broken",
        "--kind",
        "email",
        csv("bad.csv", "value\nok@example.com\nnot-an-email\n"),
      );
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(/nothing imported; bad.csv line 3: 'not-an-email' is not an email address/);
      expect(res.stdout).toBe("");
      expect(await count()).toBe(before);
      expect(
        await prisma.list.findFirst({ where: { clientId: client.clientId, name: "broken" } }),
      ).toBeNull();
      const wrongKind = await cliInProcess(
        "lists",
        "import",
        "--client",
        client.clientId,
        "--list",
        "emails",
        "--kind",
        "ip",
        csv("k.csv", "value\n10.0.0.1\n"),
      );
      expect(wrongKind.error).toMatch(/'emails' is a email list, not ip/);
      expect(
        (await cliInProcess("lists", "export", "--client", client.clientId, "--list", "nope")).error,
      ).toMatch(/list 'nope' does not exist/);
    },
    CLI_TIMEOUT,
  );
});

describe("inList in rules", () => {
  it("matches emails case-insensitively after trimming, and never an expired entry", async () => {
    const email = (e: string) => ({
      userId: undefined,
      user: { id: "u-mail", timestamp: Date.now() - 2 * HOUR, email: { email: e } },
    });
    expect((await screen(client, { ...email("mule@example.com") })).fired).toContain("L-EMAIL");
    expect((await screen(client, { ...email("  MULE@example.com ") })).fired).toContain("L-EMAIL");
    expect((await screen(client, { ...email("mule2@example.com") })).fired).not.toContain("L-EMAIL");
    expect((await screen(client, { ...email("old@example.com") })).fired).not.toContain("L-EMAIL");
    const future = await screen(client, { ...email("future@example.com") });
    expect(future.fired).toContain("L-EMAIL");
    expect(future.errors).toEqual([]);
    expect(future.lookups).toContainEqual({
      list: "emails",
      value: "future@example.com",
      matched: "future@example.com",
    });
  });

  it("matches ISO country codes", async () => {
    const card = (c: string) => ({ paymentMethod: "card", card: { cardFingerprint: "fp", binCountry: c } });
    expect((await screen(client, card("IR"))).fired).toContain("L-COUNTRY");
    expect((await screen(client, card("KP"))).fired).toContain("L-COUNTRY");
    expect((await screen(client, card("US"))).fired).not.toContain("L-COUNTRY");
  });

  it("matches IPv4 and IPv6 addresses against CIDR ranges and exact entries", async () => {
    const ip = (a: string) => ({ userDevice: { id: `d-${seq}`, ipAddress: a } });
    for (const hit of [
      "10.0.0.1",
      "10.255.255.255",
      "198.51.100.7",
      "::ffff:198.51.100.7",
      "2001:db8::1",
      "2001:0DB8:ffff::",
    ])
      expect((await screen(client, ip(hit))).fired, hit).toContain("L-IP");
    for (const miss of ["11.0.0.1", "9.255.255.255", "198.51.100.8", "2001:db9::1", "::1", "not-an-ip", ""])
      expect((await screen(client, ip(miss))).fired, miss).not.toContain("L-IP");
  });

  it("replays a decision with the list lookups it recorded, whatever the list holds now", async () => {
    const s = await screen(client, { userDevice: { id: "d-replay", ipAddress: "10.1.2.3" } });
    expect(s.fired).toContain("L-IP");
    await prisma.listEntry.deleteMany({ where: { clientId: client.clientId, key: "10.0.0.0/8" } });
    const replay = await replayDecision({ clientId: client.clientId, decisionId: s.decisionId });
    expect(replay?.matchesStored).toBe(true);
    expect(
      (await screen(client, { userDevice: { id: "d-replay", ipAddress: "10.1.2.3" } })).fired,
    ).not.toContain("L-IP");
  });

  it(
    "backtests a rule reading a list against the list as it is now",
    async () => {
      const { continueBacktest, startBacktest } = await import("@/lib/backtest/run-backtest");
      const admin = {
        id: adminId,
        clientId: client.clientId,
        email: "admin@lists.test",
        name: null,
        role: "admin" as const,
      };
      const run = async () => {
        let r = await startBacktest(admin, {
          ruleId: "L-COUNTRY",
          from: Date.now() - 2 * HOUR,
          to: Date.now(),
        });
        while (r.state === "running") r = await continueBacktest(admin, { runId: r.id, batchSize: 500 });
        return r;
      };
      const before = await run();
      expect(before.draftErrors).toBe(0);
      expect(before.draftHits).toBeGreaterThanOrEqual(2); // the IR and KP transactions above
      cli(
        "lists",
        "import",
        "--client",
        client.clientId,
        "--list",
        "countries",
        csv("us.csv", "value\nUS\n"),
      );
      const after = await run();
      expect(after.draftHits).toBe(before.draftHits + 1); // the US transaction, which did not fire when screened
    },
    CLI_TIMEOUT,
  );

  it(
    "refuses at import a rule naming a list that does not exist, with the list's name",
    async () => {
      const error = await importRules({
        clientId: client.clientId,
        rules: [rule("L-GHOST", 'inList("ghost_list", transaction.?userDevice.?ipAddress.orValue(""))')],
      }).catch((err: unknown) => err);
      expect(error).toBeInstanceOf(RuleImportError);
      expect((error as Error).message).toMatch(/L-GHOST: condition: list 'ghost_list' does not exist/);
      expect(await prisma.rule.count({ where: { clientId: client.clientId, ruleId: "L-GHOST" } })).toBe(0);
      const file = csv("ghost.json", JSON.stringify([rule("L-GHOST", 'inList("ghost_list", "x")')]));
      const res = cli("rules", "import", "--client", client.clientId, file);
      expect(res.code).not.toBe(0);
      expect(res.stderr).toMatch(/list 'ghost_list' does not exist/);
      const dynamic = await importRules({
        clientId: client.clientId,
        rules: [rule("L-DYN", 'inList(transaction.id, "x")')],
      }).catch((err: unknown) => err);
      expect((dynamic as Error).message).toMatch(/inList takes the list name as a quoted string/);
      // the editor's validation as you type says the same
      const { validateRuleDraft } = await import("@/lib/admin/validate-rule-draft");
      const admin = {
        id: adminId,
        clientId: client.clientId,
        email: "admin@lists.test",
        name: null,
        role: "admin" as const,
      };
      const draft = await validateRuleDraft(admin, {
        definition: rule("L-DRAFT", 'inList("ghost_list", transaction.id) || inList("ips", "10.0.0.1")'),
      });
      expect(draft.valid).toBe(false);
      expect(draft.errors).toEqual([
        {
          field: "condition",
          message: expect.stringMatching(/^list 'ghost_list' does not exist \(lists: .*ips/),
        },
      ]);
    },
    CLI_TIMEOUT,
  );
});

describe("admin list routes", () => {
  it("creates a list, adds, searches, removes an entry, uploads and downloads CSV, each change audited", async () => {
    asAdmin();
    const created = await call(listsRoute.POST, {
      body: { name: "devices", kind: "deviceId", description: "Emulators" },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const listId = created.body.id as string;
    expect((await call(listsRoute.POST, { body: { name: "devices", kind: "ip" } })).status).toBe(400);
    expect(
      (await call(listsRoute.POST, { body: { name: "Bad Name", kind: "ip" } })).body.error.details[0],
    ).toMatch(/^\/name/);

    const added = await call(entriesRoute.POST, {
      params: { listId },
      body: { value: "emu-1", note: "emulator farm" },
    });
    expect(added.status).toBe(200);
    const uploaded = await call(uploadRoute.POST, {
      params: { listId },
      body: { csv: "value,note\nemu-2,farm\nemu-3,\nphone-9,real phone\n", fileName: "farm.csv" },
    });
    expect(uploaded.body).toEqual({ list: "devices", entries: 3 });
    const bad = await call(uploadRoute.POST, {
      params: { listId },
      body: { csv: "note\nx\n", fileName: "bad.csv" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0]).toMatch(/^\/csv: bad.csv line 1/);

    const all = await call(listsRoute.GET, {});
    expect(all.body.lists.find((l: any) => l.id === listId)).toMatchObject({
      name: "devices",
      kind: "deviceId",
      entryCount: 4,
    });
    const search = await call(entriesRoute.GET, { params: { listId }, query: { q: "EMU" } });
    expect(search.body.entries.map((e: any) => e.value)).toEqual(["emu-1", "emu-2", "emu-3"]);
    expect(search.body.total).toBe(3);
    const byNote = await call(entriesRoute.GET, { params: { listId }, query: { q: "real" } });
    expect(byNote.body.entries.map((e: any) => e.value)).toEqual(["phone-9"]);

    const removed = await call(entryRoute.DELETE, {
      method: "DELETE",
      params: { listId, entryId: added.body.id },
    });
    expect(removed.body).toEqual({ removed: true });
    expect(
      (await call(entryRoute.DELETE, { method: "DELETE", params: { listId, entryId: added.body.id } }))
        .status,
    ).toBe(404);

    const download = await call(downloadRoute.GET, { params: { listId } });
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toMatch(/text\/csv/);
    expect(download.body).toBe("value,note,expiresAt\nemu-2,farm,\nemu-3,,\nphone-9,real phone,\n");

    // values and notes a spreadsheet would run are written as text, and read back as they were
    const formulas = await call(listsRoute.POST, { body: { name: "formulas", kind: "deviceId" } });
    const formulaListId = formulas.body.id as string;
    const hostile = [
      "=cmd|' /C calc'!A0",
      "+SUM(1+1)",
      "@SUM(1)",
      "-2+3",
      '=HYPERLINK("http://evil.example")',
    ];
    for (const value of hostile)
      expect(
        (await call(entriesRoute.POST, { params: { listId: formulaListId }, body: { value, note: value } }))
          .status,
      ).toBe(200);
    const exported = await call(downloadRoute.GET, { params: { listId: formulaListId } });
    const cells = (exported.body as string)
      .trim()
      .split("\n")
      .slice(1)
      .flatMap((line) => line.match(/("([^"]|"")*"|[^,]*)/g)!.filter((c) => c !== ""));
    expect(cells.filter((c) => /^"?[=+\-@]/.test(c))).toEqual([]);
    const reimported = await call(uploadRoute.POST, {
      params: { listId: formulaListId },
      body: { csv: exported.body, fileName: "formulas.csv", replace: true },
    });
    expect(reimported.status, JSON.stringify(reimported.body)).toBe(200);
    const stored = await prisma.listEntry.findMany({
      where: { listId: formulaListId },
      select: { value: true, note: true },
    });
    expect(stored.map((e) => e.value).sort()).toEqual([...hostile].sort());
    expect(stored.every((e) => e.note === e.value)).toBe(true);

    const audit = await prisma.auditLog.findMany({
      where: { clientId: client.clientId, entityId: listId },
      orderBy: { createdAt: "asc" },
    });
    expect(audit.map((a) => [a.action, a.actorId])).toEqual([
      ["list.created", adminId],
      ["list.entry_added", adminId],
      ["list.entries_imported", adminId],
      ["list.entry_removed", adminId],
    ]);
    session.current = null;
  });

  it("refuses reviewers and signed-out callers", async () => {
    asAdmin(reviewerId);
    expect((await call(listsRoute.GET, {})).status).toBe(403);
    expect((await call(listsRoute.POST, { body: { name: "x", kind: "ip" } })).status).toBe(403);
    session.current = null;
    expect((await call(listsRoute.GET, {})).status).toBe(401);
  });

  it(
    "a list change through the dashboard is used by the very next screening",
    async () => {
      asAdmin();
      const ips = await prisma.list.findFirstOrThrow({ where: { clientId: client.clientId, name: "ips" } });
      const ip = { userDevice: { id: "d-next", ipAddress: "203.0.113.9" } };
      expect((await screen(client, ip)).fired).not.toContain("L-IP");
      const added = await call(entriesRoute.POST, {
        params: { listId: ips.id },
        body: { value: "203.0.113.0/24" },
      });
      expect(added.status, JSON.stringify(added.body)).toBe(200);
      expect((await screen(client, ip)).fired).toContain("L-IP");
      await call(entryRoute.DELETE, { method: "DELETE", params: { listId: ips.id, entryId: added.body.id } });
      expect((await screen(client, ip)).fired).not.toContain("L-IP");
      // and through the CLI
      expect(
        cli(
          "lists",
          "import",
          "--client",
          client.clientId,
          "--list",
          "ips",
          csv("more.csv", "value\n203.0.113.9\n"),
        ).code,
      ).toBe(0);
      expect((await screen(client, ip)).fired).toContain("L-IP");
      session.current = null;
    },
    CLI_TIMEOUT,
  );
});
