import { DEFAULT_API_URL, HttpClient } from "../client";

/**
 * Where the API is and how to authenticate, resolved at call time inside the provider process. Stack config
 * (`docs:apiUrl`, secret `docs:apiToken`) wins over the environment (`DOCS_API_URL`, `DOCS_API_TOKEN`); neither is
 * ever captured by the serialized provider, so the token never reaches the state.
 */
interface StackConfig {
  apiUrl?: string;
  apiToken?: string;
  /** The default for every resource's `organizationId` (see ./defaults.ts). */
  organizationId?: string;
}

let stackConfig: StackConfig = {};
const clients = new Map<string, HttpClient>();

export const CONFIG_KEYS = {
  apiUrl: "docs:apiUrl",
  apiToken: "docs:apiToken",
  organizationId: "docs:organizationId",
} as const;
export const ENV_KEYS = {
  apiUrl: "DOCS_API_URL",
  apiToken: "DOCS_API_TOKEN",
  timeoutMs: "DOCS_API_TIMEOUT_MS",
  maxAttempts: "DOCS_API_MAX_ATTEMPTS",
  organizationId: "DOCS_ORGANIZATION_ID",
} as const;

export function setStackConfig(config: StackConfig): void {
  stackConfig = { ...config };
}

export class MissingCredentialsError extends Error {
  constructor() {
    super(
      `No API token: set it with \`pulumi config set --secret ${CONFIG_KEYS.apiToken} <token>\` ` +
        `or the ${ENV_KEYS.apiToken} environment variable.`,
    );
    this.name = "MissingCredentialsError";
  }
}

export function apiClient(): HttpClient {
  const baseUrl = nonEmpty(stackConfig.apiUrl) ?? nonEmpty(process.env[ENV_KEYS.apiUrl]) ?? DEFAULT_API_URL;
  const token = nonEmpty(stackConfig.apiToken) ?? nonEmpty(process.env[ENV_KEYS.apiToken]);
  if (!token) throw new MissingCredentialsError();
  const key = `${baseUrl}\u0000${token}`;
  let client = clients.get(key);
  if (!client) {
    client = new HttpClient({
      baseUrl,
      token,
      timeoutMs: positiveNumber(process.env[ENV_KEYS.timeoutMs]),
      retry: { maxAttempts: positiveNumber(process.env[ENV_KEYS.maxAttempts]) },
    });
    clients.set(key, client);
  }
  return client;
}

/**
 * The organization a resource belongs to when its program leaves `organizationId` out, as `aws:region` works: stack
 * config `docs:organizationId` wins over `DOCS_ORGANIZATION_ID`, as for the API URL. Undefined when neither is set.
 */
export function defaultOrganizationId(): string | undefined {
  return nonEmpty(stackConfig.organizationId) ?? nonEmpty(process.env[ENV_KEYS.organizationId]);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

function positiveNumber(value: string | undefined): number | undefined {
  const n = Number(value);
  return value !== undefined && Number.isFinite(n) && n > 0 ? n : undefined;
}
