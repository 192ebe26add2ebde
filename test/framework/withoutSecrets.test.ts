import { describe, expect, it } from "vitest";
import { ResourceError, withoutSecrets } from "../../provider/framework/explain";

/** The words of an error with the resource's secret values taken out (the lifecycle's last step on a failure). */
describe("withoutSecrets", () => {
  const cause = new Error('headers.Authorization: "Bearer s3cr3t-token" rejected');

  it("hides every secret the message names, in each part of the explanation", () => {
    const error = new ResourceError({
      subject: "SiteMcpServer create",
      what: 'POST /v1/x failed with 400 Bad Request: "Bearer s3cr3t-token" rejected, "Bearer s3cr3t-token" again',
      note: "kept Bearer s3cr3t-token",
      fix: "Rotate Bearer s3cr3t-token.",
      cause,
    });
    const hidden = withoutSecrets(error, ["Bearer s3cr3t-token"]) as ResourceError;
    expect(hidden).not.toBe(error);
    expect(hidden.message).toBe(
      'SiteMcpServer create: POST /v1/x failed with 400 Bad Request: "[secret]" rejected, "[secret]" again; kept ' +
        "[secret]. Rotate [secret].",
    );
    expect(hidden.cause).toBe(cause);
    expect(hidden.name).toBe("Error");
  });

  it("hides a secret that contains another one whole", () => {
    const hidden = withoutSecrets(new Error("token abcd-efgh in use"), ["abcd", "abcd-efgh"]) as Error;
    expect(hidden.message).toBe("token [secret] in use");
    expect((hidden as ResourceError).details.cause).toBeInstanceOf(Error);
  });

  it("leaves an error that names no secret, secrets of under 4 characters, and what is not an error as they are", () => {
    const error = new Error("abc is not accepted");
    expect(withoutSecrets(error, ["abc", "zzzz"])).toBe(error);
    expect(withoutSecrets(error, [])).toBe(error);
    expect(withoutSecrets("abcd", ["abcd"])).toBe("abcd");
    expect((withoutSecrets(new Error("wxyz!"), ["wxyz"]) as Error).message).toBe("[secret]!");
  });
});
