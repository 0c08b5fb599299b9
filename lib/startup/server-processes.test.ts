import { describe, expect, it } from "vitest";
import { defaultServerProcesses, isLocalDatabase } from "./server-processes";

describe("defaultServerProcesses", () => {
  it("runs one process per core when the database is elsewhere", () => {
    expect(defaultServerProcesses("postgresql://app@db.internal:5432/risk", 8)).toBe(8);
    expect(defaultServerProcesses("postgresql://app@10.0.0.7/risk", 2)).toBe(2);
    expect(defaultServerProcesses("postgresql://app@db.internal/risk", 1)).toBe(1);
  });

  it("leaves half the cores to a database on this machine, and runs at least one process", () => {
    expect(defaultServerProcesses("postgresql://postgres@127.0.0.1:5432/risk", 2)).toBe(1);
    expect(defaultServerProcesses("postgresql://postgres@localhost/risk", 8)).toBe(4);
    expect(defaultServerProcesses("postgresql://postgres@[::1]:5432/risk", 5)).toBe(2);
    expect(defaultServerProcesses("postgresql://postgres@127.0.0.1/risk", 1)).toBe(1);
  });
});

describe("isLocalDatabase", () => {
  it("knows loopback addresses, localhost and Unix sockets", () => {
    expect(isLocalDatabase("postgresql://postgres@127.0.1.1/risk")).toBe(true);
    expect(isLocalDatabase("postgresql://postgres@LOCALHOST/risk")).toBe(true);
    expect(isLocalDatabase("postgresql:///risk?host=/run/postgresql")).toBe(true);
    expect(isLocalDatabase("postgresql:///risk")).toBe(true);
  });

  it("takes any other host, a socket-less host parameter, or no URL for a remote database", () => {
    expect(isLocalDatabase("postgresql://app@db.internal/risk")).toBe(false);
    expect(isLocalDatabase("postgresql://app@127.0.0.1.example.com/risk")).toBe(false);
    expect(isLocalDatabase("postgresql://app@localhost/risk?host=db.internal")).toBe(false);
    expect(isLocalDatabase("not a url")).toBe(false);
    expect(isLocalDatabase(undefined)).toBe(false);
  });
});
