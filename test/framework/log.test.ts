import * as pulumi from "@pulumi/pulumi";
import { afterEach, describe, expect, it, vi } from "vitest";
import { logLine, redirectLog } from "../../provider/framework/log";

afterEach(() => vi.restoreAllMocks());

describe("the provider's log", () => {
  it("goes to the engine's log at the line's level", async () => {
    const info = vi.spyOn(pulumi.log, "info").mockResolvedValue(undefined);
    const warn = vi.spyOn(pulumi.log, "warn").mockResolvedValue(undefined);
    logLine("warn", "Space s-1 was deleted");
    logLine("info", "Team t-1 left as it is");
    expect(warn.mock.calls).toEqual([["Space s-1 was deleted"]]);
    expect(info.mock.calls).toEqual([["Team t-1 left as it is"]]);
  });

  it("falls back to stderr, with the level, when the engine does not take the line", async () => {
    vi.spyOn(pulumi.log, "warn").mockRejectedValue(new Error("no engine"));
    const stderr = vi.spyOn(process.stderr, "write").mockReturnValue(true);
    logLine("warn", "Space s-1 was deleted");
    await vi.waitFor(() => expect(stderr).toHaveBeenCalledWith("warn: Space s-1 was deleted\n"));
  });

  it("falls back to stderr when the engine's log throws at once", () => {
    vi.spyOn(pulumi.log, "info").mockImplementation(() => {
      throw new Error("no engine");
    });
    const stderr = vi.spyOn(process.stderr, "write").mockReturnValue(true);
    logLine("info", "Team t-1 left as it is");
    expect(stderr.mock.calls).toEqual([["info: Team t-1 left as it is\n"]]);
  });

  it("is redirected until the returned function puts the engine's log back", () => {
    const warn = vi.spyOn(pulumi.log, "warn").mockResolvedValue(undefined);
    const lines: string[] = [];
    const restore = redirectLog((level, line) => lines.push(`${level}: ${line}`));
    logLine("warn", "redirected");
    expect(lines).toEqual(["warn: redirected"]);
    expect(warn).not.toHaveBeenCalled();
    restore();
    logLine("warn", "back to the engine");
    expect(lines).toEqual(["warn: redirected"]);
    expect(warn.mock.calls).toEqual([["back to the engine"]]);
  });
});
