import { describe, expect, it } from "vitest";
import { checkedBaseUrl } from "../../provider/client/apiUrl";
import { headerValue, oneLine, parseRetryAfter } from "../../provider/client/responseText";

/** The small readers of what came back and of the API URL, edge by edge. */
describe("oneLine", () => {
  it("takes an HTML page's title, with attributes on the tag, collapsed to one line", () => {
    expect(oneLine('<html><head><title lang="en">\n  Bad   gateway\n</title></head><body>x</body></html>')).toBe(
      "Bad gateway",
    );
  });

  it("without a title (or an empty one) takes the text, leaving out scripts and styles with attributes", () => {
    const page =
      '<html><head><title> </title><style type="text/css">p { color: red }\n</style></head>' +
      '<body><script type="module">let a = "<b>";\nrun(a)</script><h1>Service</h1><p>unavailable</p></body></html>';
    expect(oneLine(page)).toBe("Service unavailable");
    expect(oneLine("plain\ttext\n\nhere")).toBe("plain text here");
  });

  it("cuts a line over 200 characters to 199 and an ellipsis, and keeps one of exactly 200", () => {
    expect(oneLine("a".repeat(200))).toBe("a".repeat(200));
    expect(oneLine("a".repeat(201))).toBe(`${"a".repeat(199)}…`);
  });
});

describe("headerValue and parseRetryAfter", () => {
  it("takes the first of repeated headers", () => {
    expect(headerValue(["1", "2"])).toBe("1");
    expect(headerValue("3")).toBe("3");
    expect(headerValue(undefined)).toBeUndefined();
  });

  it("reads delta-seconds, an HTTP date (never negative), and nothing else", () => {
    const now = Date.parse("2026-11-23T12:00:00Z");
    expect(parseRetryAfter(" 30 ", now)).toBe(30_000);
    expect(parseRetryAfter("Mon, 23 Nov 2026 12:00:45 GMT", now)).toBe(45_000);
    expect(parseRetryAfter("Mon, 23 Nov 2026 11:59:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("30s", now)).toBeUndefined();
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});

describe("checkedBaseUrl", () => {
  it("strips every trailing slash", () => {
    expect(checkedBaseUrl("https://api.example.test/v1///").href).toBe("https://api.example.test/v1");
    expect(checkedBaseUrl("https://api.example.test/a//b").pathname).toBe("/a//b");
  });

  it("allows plain http to this machine only", () => {
    for (const local of ["http://localhost:8080", "http://127.0.0.1:1", "http://127.12.255.30", "http://[::1]:9"]) {
      expect(checkedBaseUrl(local).protocol, local).toBe("http:");
    }
    for (const remote of [
      "http://127.0.0.1.example.test",
      "http://evil127.0.0.1.test",
      "http://10.127.0.0.1.nip.io",
      "http://128.0.0.1",
    ]) {
      expect(() => checkedBaseUrl(remote), remote).toThrow(/plain http to a host other than this machine/);
    }
  });

  it("refuses other protocols and what is not a URL", () => {
    expect(() => checkedBaseUrl("ftp://api.example.test")).toThrow(/uses ftp: instead of https:/);
    expect(() => checkedBaseUrl("not a url")).toThrow(/is not a URL/);
  });
});
