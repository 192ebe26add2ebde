import { describe, expect, it } from "vitest";
import {
  ConnectionError,
  DocsApiError,
  errorForStatus,
  InsecureApiUrlError,
  isNotFound,
  NotFoundError,
  outcomeUnknown,
  redact,
  ServerError,
  TimeoutError,
  UnexpectedResponseError,
} from "../../provider/client";

/** The error hierarchy on its own: what every failure of a call says, and what the token guard removes. */
describe("redact", () => {
  it("removes every occurrence of the token", () => {
    expect(redact("Bearer abcd; again abcd.", "abcd")).toBe("Bearer [redacted]; again [redacted].");
    expect(redact("tok_x", "tok_x")).toBe("[redacted]");
  });

  it("leaves the text alone without a token, or with one too short to be a real token", () => {
    // A token of one to three characters would blank out ordinary words of every message: none is that short.
    expect(redact("a bad id", undefined)).toBe("a bad id");
    expect(redact("a bad id", "")).toBe("a bad id");
    expect(redact("a bad id", "bad")).toBe("a bad id");
    expect(redact("a bad id", "a")).toBe("a bad id");
  });

  it("leaves a text without the token unchanged", () => {
    expect(redact("nothing secret here", "tok_5ecret")).toBe("nothing secret here");
  });
});

describe("messages", () => {
  const where = { method: "GET", path: "/v1/orgs/o", attempts: 1 };

  it("name the call, the status and what the API said", () => {
    expect(errorForStatus({ ...where, status: 404, apiMessage: "no such org" }).message).toBe(
      "GET /v1/orgs/o failed with 404 Not Found: no such org",
    );
    expect(errorForStatus({ ...where, status: 404 }).message).toBe("GET /v1/orgs/o failed with 404 Not Found");
  });

  it("count the attempts only when there were several", () => {
    expect(errorForStatus({ ...where, status: 503, attempts: 2 }).message).toBe(
      "GET /v1/orgs/o failed with 503 Service Unavailable (after 2 attempts)",
    );
    expect(new ServerError({ ...where, status: 500, attempts: 1 }).message).not.toContain("attempt");
  });

  it("join the API's message and ours; without a status say there was no response", () => {
    expect(new DocsApiError({ ...where, status: 409, apiMessage: "taken" }, "choose another").message).toBe(
      "GET /v1/orgs/o failed with 409 Conflict: taken; choose another",
    );
    expect(new ConnectionError(where, "connection error ECONNRESET api:443").message).toBe(
      "GET /v1/orgs/o failed: connection error ECONNRESET api:443",
    );
    expect(new ConnectionError(where).message).toBe("GET /v1/orgs/o failed: no response");
  });

  it("an unexpected body says what was wrong, with or without a status", () => {
    expect(new UnexpectedResponseError({ ...where, status: 200 }, 'field "id": Required').message).toBe(
      'GET /v1/orgs/o answered 200 OK with an unexpected body: field "id": Required',
    );
    expect(new UnexpectedResponseError({ ...where, attempts: 3 }).message).toBe(
      "GET /v1/orgs/o answered with an unexpected body: unreadable (after 3 attempts)",
    );
    expect(new UnexpectedResponseError({ ...where, status: 299 }, "x").message).toBe(
      "GET /v1/orgs/o answered 299 with an unexpected body: x",
    );
  });

  it("carry the details and the class name", () => {
    const cause = new Error("socket hang up");
    const error = new TimeoutError({ ...where, attempts: 4, retryAfterMs: 7, cause }, "slow");
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.name).toBe("TimeoutError");
    expect([error.method, error.path, error.status, error.attempts, error.retryAfterMs]).toEqual([
      "GET",
      "/v1/orgs/o",
      undefined,
      4,
      7,
    ]);
    expect(error.cause).toBe(cause);
    expect("cause" in new NotFoundError({ ...where, status: 404 })).toBe(false);
  });
});

describe("outcomeUnknown", () => {
  const unknownOutcome = () =>
    new ServerError({ method: "POST", path: "/v1/x", status: 502, attempts: 1, outcomeUnknown: true });

  it("is read through the causes a kind wrapped the error in, up to five deep", () => {
    expect(outcomeUnknown(unknownOutcome())).toBe(true);
    let wrapped: Error = unknownOutcome();
    for (let depth = 1; depth <= 4; depth++) wrapped = new Error(`wrap ${depth}`, { cause: wrapped });
    expect(outcomeUnknown(wrapped)).toBe(true);
    expect(outcomeUnknown(new Error("wrap 5", { cause: wrapped }))).toBe(false);
  });

  it("is false for a definite answer, a plain error and what is not an error", () => {
    expect(outcomeUnknown(new ServerError({ method: "POST", path: "/v1/x", status: 502, attempts: 1 }))).toBe(false);
    expect(outcomeUnknown(new Error("boom"))).toBe(false);
    expect(outcomeUnknown({ outcomeUnknown: true })).toBe(false);
    expect(outcomeUnknown(undefined)).toBe(false);
  });
});

describe("isNotFound", () => {
  it("is true for a 404 only", () => {
    expect(isNotFound(errorForStatus({ method: "GET", path: "/v1/x", status: 404, attempts: 1 }))).toBe(true);
    expect(isNotFound(errorForStatus({ method: "GET", path: "/v1/x", status: 410, attempts: 1 }))).toBe(false);
    expect(isNotFound(new Error("404"))).toBe(false);
  });
});

describe("InsecureApiUrlError", () => {
  it("is named, and names the URL and what is wrong with it", () => {
    const error = new InsecureApiUrlError("ftp://x", "uses ftp: instead of https:");
    expect(error.name).toBe("InsecureApiUrlError");
    expect(error.url).toBe("ftp://x");
    expect(error.message).toMatch(/^The API URL "ftp:\/\/x" uses ftp: instead of https:\. Use an https:\/\/ URL/);
  });
});
