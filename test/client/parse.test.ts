import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parseResponse, UnexpectedResponseError } from "../../provider/client";

/** Reading an answer with a schema: tolerant of extras, exact about what is missing, and brief about it. */
const site = z.object({ id: z.string(), title: z.string(), urls: z.object({ published: z.string() }).optional() });

const failureOf = (read: () => unknown) => {
  try {
    read();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the answer to be refused");
};

describe("parseResponse", () => {
  it("returns what the schema keeps, dropping fields it does not know", () => {
    expect(parseResponse(site, { id: "s1", title: "Docs", extra: 1 }, "GET", "/v1/sites/s1")).toEqual({
      id: "s1",
      title: "Docs",
    });
  });

  it("names the call and each field, nested ones by their path", () => {
    const error = failureOf(() => parseResponse(site, { id: 7, title: "T", urls: {} }, "GET", "/v1/sites/s1"));
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error.message).toBe(
      'GET /v1/sites/s1 answered with an unexpected body: field "id": Invalid input: expected string, received ' +
        'number; field "urls.published": Invalid input: expected string, received undefined',
    );
  });

  it('calls a body of the wrong type "the body"', () => {
    expect(failureOf(() => parseResponse(site, "<html>", "POST", "/v1/orgs/o/sites")).message).toBe(
      "POST /v1/orgs/o/sites answered with an unexpected body: the body: Invalid input: expected object, received string",
    );
  });

  it("names at most three problems", () => {
    const wide = z.object({ a: z.string(), b: z.string(), c: z.string(), d: z.string() });
    const message = failureOf(() => parseResponse(wide, {}, "GET", "/v1/x")).message;
    expect(message.match(/field "/g)).toHaveLength(3);
    expect(message).toContain('field "c"');
    expect(message).not.toContain('field "d"');
  });
});
