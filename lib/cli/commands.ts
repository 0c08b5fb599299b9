import { readFile } from "node:fs/promises";
import { z } from "zod";
import { createApiKey, revokeApiKey } from "@/lib/auth/api-keys";
import { unlockSignIn } from "@/lib/auth/sign-in";
import { configureClient } from "@/lib/clients/configure-client";
import { createClient } from "@/lib/clients/create-client";
import { FEATURES } from "@/lib/clients/schemas";
import { RECOMMENDED_ACTIONS } from "@/lib/risk/risk-levels";
import { prisma } from "@/lib/db";
import {
  DashboardUserError,
  insertDashboardUser,
  prepareDashboardUser,
} from "@/lib/dashboard-users/create-dashboard-user";
import { CliError, listFlag, optionalFlag, requireFlag, type TArgs } from "@/lib/cli/args";

/** A flag's whole number: digits only (the bounds are the schema's). */
function wholeNumberFlag(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new CliError(`${flag} must be a whole number`);
  return Number(value);
}

/** `--link-fan-out-cap N`. */
function fanOutCapFlag(value: string | undefined): number | undefined {
  return wholeNumberFlag(value, "--link-fan-out-cap");
}

function checkList(values: string[] | undefined, allowed: readonly string[], what: string): void {
  for (const v of values ?? []) {
    if (!allowed.includes(v))
      throw new CliError(`Unknown ${what} '${v}'; expected one of ${allowed.join(", ")}`);
  }
}

async function requireClient(clientId: string): Promise<void> {
  const client = await prisma.client.findUnique({ where: { id: clientId }, select: { id: true } });
  if (!client) throw new CliError(`Client ${clientId} does not exist`);
}

export type TCommand = (args: TArgs) => Promise<unknown>;

// Extension point for commands that live with their domain (rules import/export).
export const extraCommands: Record<string, TCommand> = {};

export const commands: Record<string, TCommand> = {
  "client create": async (args) => {
    const type = requireFlag(args, "type");
    if (type !== "business" && type !== "consumer") throw new CliError("--type must be business or consumer");
    const features = listFlag(args, "features") ?? [];
    const actions = listFlag(args, "actions");
    checkList(features, FEATURES, "feature");
    checkList(actions, RECOMMENDED_ACTIONS, "action");
    if (actions && actions.length === 0) throw new CliError("--actions needs at least one action");
    return createClient({
      name: requireFlag(args, "name"),
      type,
      features: features as (typeof FEATURES)[number][],
      actions: actions as (typeof RECOMMENDED_ACTIONS)[number][] | undefined,
    });
  },
  "client configure": async (args) => {
    const clientId = requireFlag(args, "client");
    const features = listFlag(args, "features");
    const actions = listFlag(args, "actions");
    checkList(features, FEATURES, "feature");
    checkList(actions, RECOMMENDED_ACTIONS, "action");
    if (actions && actions.length === 0) throw new CliError("--actions needs at least one action");
    const name = optionalFlag(args, "name");
    let reportingProfile: unknown;
    const profileFile = optionalFlag(args, "reporting-profile");
    if (profileFile) reportingProfile = JSON.parse(await readFile(profileFile, "utf8"));
    const result = await configureClient({
      clientId,
      name,
      features: features as (typeof FEATURES)[number][] | undefined,
      actions: actions as (typeof RECOMMENDED_ACTIONS)[number][] | undefined,
      reportingProfile: reportingProfile as never,
      baseCurrency: optionalFlag(args, "base-currency"),
      linkFanOutCap: fanOutCapFlag(optionalFlag(args, "link-fan-out-cap")),
      retentionMonths: wholeNumberFlag(optionalFlag(args, "retention-months"), "--retention-months"),
    });
    if (!result) throw new CliError(`Client ${clientId} does not exist`);
    return result;
  },
  "apikey create": async (args) => {
    const clientId = requireFlag(args, "client");
    await requireClient(clientId);
    const { apiKey } = await createApiKey({ clientId, name: optionalFlag(args, "name") });
    return { apiKey };
  },
  "apikey revoke": async (args) => {
    const revoked = await revokeApiKey({ apiKey: requireFlag(args, "key") });
    if (!revoked) throw new CliError("No active API key matches --key");
    return { revoked: true };
  },
  "user create": async (args) => {
    const role = requireFlag(args, "role");
    try {
      const input = {
        clientId: requireFlag(args, "client"),
        email: requireFlag(args, "email"),
        password: requireFlag(args, "password"),
        role: role as "admin",
        name: optionalFlag(args, "name"),
      };
      // audited like a team member an admin creates: who made an account matters for four eyes
      const prepared = await prepareDashboardUser(input);
      return await prisma.$transaction(async (tx) => {
        const created = await insertDashboardUser(prepared, tx);
        await tx.auditLog.create({
          data: {
            clientId: input.clientId,
            actorType: "operator",
            actorId: "cli",
            action: "dashboard_user.created",
            entityType: "dashboard_user",
            entityId: created.userId,
            details: { email: input.email, role: input.role },
          },
        });
        return created;
      });
    } catch (err) {
      if (err instanceof DashboardUserError) throw new CliError(err.message);
      throw err;
    }
  },
  "user unlock": async (args) => unlockSignIn(requireFlag(args, "email")),
};

export function describeError(err: unknown): string {
  if (err instanceof CliError) return err.message;
  if (err instanceof z.ZodError)
    return err.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; ");
  if (err instanceof SyntaxError) return `Invalid JSON: ${err.message}`;
  if (err instanceof Error && "code" in err && err.code === "ENOENT") return err.message;
  return err instanceof Error ? err.message : String(err);
}
