import { describe, expect, it } from "vitest";
import { defaultServerProcesses, isLocalDatabase } from "./server-processes";

describe("defaultServerProcesses", () => {
  it("runs one process per core when the database is elsewhere", () => {
    expect(defaultServerProcesses("postgresql://app@db.internal:5432/risk", 8)).toBe(8);
    expect(defaultServerProcesses("postgres://app@10.0.0.7/risk", 2)).toBe(2);
    expect(defaultServerProcesses("postgresql://app@db.internal/risk", 1)).toBe(1);
  });

  it("leaves half the cores to a database on this machine, and runs at least one process", () => {
    expect(defaultServerProcesses("postgresql://postgres@127.0.0.1:5432/risk", 2)).toBe(1);
    expect(defaultServerProcesses("postgres://postgres@localhost/risk", 8)).toBe(4);
    expect(defaultServerProcesses("postgresql://postgres@[::1]:5432/risk", 5)).toBe(2);
    expect(defaultServerProcesses("postgresql://postgres@127.0.0.1/risk", 1)).toBe(1);
  });
});

describe("isLocalDatabase", () => {
  it("reads the host as pg does: loopback, localhost, sockets in every spelling", () => {
    expect(isLocalDatabase("postgresql://postgres@127.0.1.1/risk")).toBe(true);
    expect(isLocalDatabase("postgresql://postgres@LOCALHOST/risk")).toBe(true);
    expect(isLocalDatabase("postgresql:///risk?host=/run/postgresql")).toBe(true);
    expect(isLocalDatabase("postgresql://%2Frun%2Fpostgresql/risk")).toBe(true);
    expect(isLocalDatabase("postgresql://db.internal/risk?host=localhost")).toBe(true);
    expect(isLocalDatabase("/run/postgresql risk")).toBe(true);
  });

  it("takes an empty host from PGHOST, else the default socket", () => {
    expect(isLocalDatabase("postgresql:///risk", undefined)).toBe(true);
    expect(isLocalDatabase("postgres://app@/risk", undefined)).toBe(true);
    expect(isLocalDatabase("postgres://app@/risk", "db.internal")).toBe(false);
    expect(isLocalDatabase("postgres://app@/risk", "/var/run/postgresql")).toBe(true);
  });

  it("takes any other host, or no URL, for another machine", () => {
    expect(isLocalDatabase("postgresql://app@db.internal/risk")).toBe(false);
    expect(isLocalDatabase("postgresql://app@127.0.0.1.example.com/risk")).toBe(false);
    expect(isLocalDatabase("postgresql://app@localhost/risk?host=db.internal")).toBe(false);
    expect(isLocalDatabase("postgresql://app@192.168.1.20/risk")).toBe(false);
    expect(isLocalDatabase(undefined)).toBe(false);
  });
});
