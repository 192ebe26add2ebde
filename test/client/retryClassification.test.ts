import { describe, expect, it } from "vitest";
import { ConnectionError, errorForStatus, TimeoutError, UnexpectedResponseError } from "../../provider/client";
import { isRetryable, mayHaveActed } from "../../provider/client/transport";

/**
 * The retry classification, failure by failure: the matrix in retry.test.ts drives one refused connection, one reset
 * and one 503 through a server; this table names every connection code and status the transport tells apart, so
 * dropping one of them from its set (a 502 no longer retried, an ENOTFOUND POST no longer repeated) fails here.
 */
const where = { method: "POST", path: "/v1/orgs/o1/sites", attempts: 1 };
/** undici puts the system error's code on the cause, sometimes one level further down. */
const connection = (code: string | undefined, depth = 1) => {
  let cause: unknown = Object.assign(new Error(`connect ${code}`), code === undefined ? {} : { code });
  for (let level = 1; level < depth; level++) cause = new Error("fetch failed", { cause });
  return new ConnectionError({ ...where, cause });
};

describe("connection failures", () => {
  it.each(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "UND_ERR_CONNECT_TIMEOUT"])(
    "%s: never sent, so even a create is repeated and the API cannot have acted",
    (code) => {
      for (const error of [connection(code), connection(code, 3)]) {
        expect(isRetryable(false, error)).toBe(true);
        expect(isRetryable(true, error)).toBe(true);
        expect(mayHaveActed(error)).toBe(false);
      }
    },
  );

  it.each(["ECONNRESET", "UND_ERR_SOCKET", "EPIPE", undefined])(
    "%s: may have reached the API, so only an idempotent call is repeated",
    (code) => {
      const error = connection(code);
      expect(isRetryable(false, error)).toBe(false);
      expect(isRetryable(true, error)).toBe(true);
      expect(mayHaveActed(error)).toBe(true);
    },
  );

  it("a code deeper than four causes is not looked for: the failure counts as one that may have been sent", () => {
    const error = connection("ECONNREFUSED", 5);
    expect(isRetryable(false, error)).toBe(false);
    expect(mayHaveActed(error)).toBe(true);
  });

  it("a timeout is a connection failure that may have reached the API", () => {
    const error = new TimeoutError({ ...where, cause: new Error("timeout") });
    expect(isRetryable(false, error)).toBe(false);
    expect(isRetryable(true, error)).toBe(true);
    expect(mayHaveActed(error)).toBe(true);
  });
});

describe("answers", () => {
  it.each([500, 502, 503, 504])("%i: retried when idempotent, and the API may have acted", (status) => {
    const error = errorForStatus({ ...where, status });
    expect(isRetryable(true, error)).toBe(true);
    expect(isRetryable(false, error)).toBe(false);
    expect(mayHaveActed(error)).toBe(true);
  });

  it.each([501, 505])("%i: a server error that repeating will not mend, though the API may have acted", (status) => {
    const error = errorForStatus({ ...where, status });
    expect(isRetryable(true, error)).toBe(false);
    expect(mayHaveActed(error)).toBe(true);
  });

  it.each([300, 400, 401, 403, 404, 409, 412, 422, 429])("%i: a definite answer, never retried here", (status) => {
    const error = errorForStatus({ ...where, status });
    expect(isRetryable(true, error)).toBe(false);
    expect(mayHaveActed(error)).toBe(false);
  });

  it.each([200, 201])("%i with a body that cannot be read: the API acted, and what it made is not known", (status) => {
    const error = new UnexpectedResponseError({ ...where, status }, "the body is not JSON");
    expect(isRetryable(true, error)).toBe(false);
    expect(mayHaveActed(error)).toBe(true);
  });
});
