import type { Logger } from "inngest";
import { logError, logInfo } from "@/lib/log";

// The SDK's internal messages as the service's JSON log lines (pino-style calls: fields, then message).
function split(args: unknown[]): { message: string; fields: Record<string, unknown> } {
  const fields: Record<string, unknown> = {};
  const words: string[] = [];
  for (const arg of args) {
    if (typeof arg === "string") words.push(arg);
    else if (arg instanceof Error) fields.error = arg.message;
    else if (arg && typeof arg === "object") {
      for (const [k, v] of Object.entries(arg)) fields[k] = v instanceof Error ? v.message : v;
    }
  }
  return { message: `inngest: ${words.join(" ")}`, fields };
}

export const inngestLogger: Logger = {
  debug: () => {},
  info: (...args: unknown[]) => {
    const { message, fields } = split(args);
    logInfo(message, fields);
  },
  warn: (...args: unknown[]) => {
    const { message, fields } = split(args);
    logInfo(message, { ...fields, level: "warn" });
  },
  error: (...args: unknown[]) => {
    const { message, fields } = split(args);
    logError(message, fields.err ?? fields.error ?? fields);
  },
};
