import { InsecureApiUrlError } from "./errors";

/** The token is only ever sent over TLS, or in the clear to this machine (the emulator, a local proxy). */
export function checkedBaseUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value.replace(/\/+$/, ""));
  } catch {
    throw new InsecureApiUrlError(value, "is not a URL");
  }
  if (url.protocol === "https:") return url;
  if (url.protocol !== "http:") throw new InsecureApiUrlError(value, `uses ${url.protocol} instead of https:`);
  if (!isLoopback(url.hostname)) {
    throw new InsecureApiUrlError(
      value,
      "is plain http to a host other than this machine: the token would travel unencrypted",
    );
  }
  return url;
}

function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}
