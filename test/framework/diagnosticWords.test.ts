import { afterEach, describe, expect, it } from "vitest";
import { adoptedMessage } from "../../provider/framework/adoptions";
import { MissingConnectionTokenError } from "../../provider/framework/connection";
import { credentialFix, explain } from "../../provider/framework/explain";
import { MissingCredentialsError, setStackConfig } from "../../provider/framework/settings";

/** The exact words of each credential fix and adoption message, one branch at a time. */
const savedToken = process.env.DOCS_API_TOKEN;
afterEach(() => {
  setStackConfig({});
  if (savedToken === undefined) delete process.env.DOCS_API_TOKEN;
  else process.env.DOCS_API_TOKEN = savedToken;
});

const SAVED =
  "Refresh, read and destroy use the provider configuration saved in the state by the last `pulumi up`, so a " +
  "token set in docs:apiToken or changed since then is not used yet.";
const NOW =
  "Check the API token: `pulumi config set --secret docs:apiToken <token>` or the DOCS_API_TOKEN environment variable.";

describe("credentialFix", () => {
  it("names both settings for operations that read the current stack config", () => {
    for (const operation of ["check", "diff", "create", "update"]) {
      expect(credentialFix(operation, "missing")).toBe(NOW);
      expect(credentialFix(operation, "rejected")).toBe(NOW);
    }
  });

  it("explains the saved configuration for read and delete, by problem and by where the token came from", () => {
    setStackConfig({ apiToken: "from-config" });
    expect(credentialFix("read", "rejected")).toBe(
      `${SAVED} The rejected token is that saved docs:apiToken: run \`pulumi up\` once to save the current one ` +
        "(or `pulumi refresh --run-program`).",
    );
    setStackConfig({});
    process.env.DOCS_API_TOKEN = "from-env";
    expect(credentialFix("delete", "rejected")).toBe("The rejected token is DOCS_API_TOKEN: export a valid one.");
    delete process.env.DOCS_API_TOKEN;
    expect(credentialFix("read", "missing")).toBe(
      `${SAVED} Fix: export DOCS_API_TOKEN=<token> and run again, or run \`pulumi up\` once.`,
    );
    setStackConfig({ apiToken: "from-config" });
    expect(credentialFix("delete", "missing")).toBe(
      `${SAVED} Fix: export DOCS_API_TOKEN=<token> and run again, or run \`pulumi up\` once.`,
    );
  });
});

/** A missing token, explained as the lifecycle explains any failure of a kind's operation. */
const explainMissingCredentials = (kind: string, operation: string, id: string | undefined, error: unknown) =>
  explain({ kind, idFormat: "the id" }, operation, id, error);

describe("explain: a token missing before any request", () => {
  it("names the resource, operation and fix of a missing stack token, keeping the error's name and cause", () => {
    const missing = new MissingCredentialsError();
    const explained = explainMissingCredentials("Site", "create", undefined, missing) as Error;
    expect(explained.message).toBe(`Site create: No API token. ${NOW}`);
    expect(explained.name).toBe("MissingCredentialsError");
    expect(explained.cause).toBe(missing);
    expect((explainMissingCredentials("Site", "update", "s-1", missing) as Error).message).toBe(
      `Site "s-1" update: No API token. ${NOW}`,
    );
  });

  it("prefixes a connection's missing token variable with the resource", () => {
    const missing = new MissingConnectionTokenError("OTHER_TOKEN");
    const explained = explainMissingCredentials("Team", "read", "t-1", missing) as Error;
    expect(explained.message).toBe(`Team "t-1" read: ${missing.message}`);
    expect(explained.name).toBe("MissingConnectionTokenError");
    expect(explained.cause).toBe(missing);
  });

  it("passes any other error through as it is", () => {
    const other = new Error("boom");
    expect(explainMissingCredentials("Team", "read", "t-1", other)).toBe(other);
    expect(explainMissingCredentials("Team", "read", "t-1", "text")).toBe("text");
  });
});

describe("adoptedMessage", () => {
  it("says what adoption changed, and how the object was found", () => {
    expect(adoptedMessage("Site", "s-1", [], "importId")).toBe(
      'Site "s-1" adopted (importId): the existing object was taken over, not created; no change.',
    );
    expect(adoptedMessage("Site", "s-1", ["title", "visibility"], "adoptsOnCreate")).toBe(
      'Site "s-1" adopted: the existing object was taken over, not created; changed title, visibility.',
    );
    // A lost create answer is not an importId: the message must not send the reader looking for one.
    expect(adoptedMessage("Site", "s-1", ["published"], "recovery")).toBe(
      'Site "s-1" adopted: the create\'s answer was lost but the API had made it, so it was taken over, not made ' +
        "twice; changed published.",
    );
  });
});
