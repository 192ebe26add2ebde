/**
 * The code the serialized providers load at call time (`require("pulumi-docs-platform/runtime")`), in the provider
 * process. The engine runs one operation per provider process, so the process has one Operation
 * (./framework/operation.ts): its clients, listings and what it saw of the program. It must keep accepting every
 * state shape older versions wrote, since `__provider` texts never change.
 */
import type * as pulumi from "@pulumi/pulumi";
import { dropHostEchoes } from "./framework/hostEcho";
import { Operation } from "./framework/operation";
import { CONFIG_KEYS, setStackConfig } from "./framework/settings";
import { type AnyKind, definitions } from "./registry";

const byName: ReadonlyMap<string, AnyKind> = new Map(definitions.map((definition) => [definition.kind, definition]));

/** The operation of this process: the one binding here that changes, and only when a test starts another. */
let operation = new Operation(definitions);

/** The operation every call of this process goes to. */
export function currentOperation(): Operation {
  return operation;
}

/**
 * Ends the current operation (its clients closed) and starts a fresh one, which has seen nothing: what a new provider
 * process starts with. Tests call it where the engine would start a new operation.
 */
export function startOperation(): Operation {
  operation.close();
  operation = new Operation(definitions);
  return operation;
}

/** The lifecycle of a kind in the current operation, or in the one given. */
export function lifecycle(kind: string, within: Operation = operation) {
  const definition = byName.get(kind);
  if (!definition) throw new Error(`pulumi-docs-platform: unknown resource kind "${kind}"; upgrade the package?`);
  return within.lifecycle(definition);
}

export function configure(req: pulumi.dynamic.ConfigureRequest): void {
  // Only the provider host configures a provider: this is its process, whose console.error the host writes to.
  dropHostEchoes();
  operation.tellAtExit();
  setStackConfig({
    apiUrl: req.config.get(CONFIG_KEYS.apiUrl),
    apiToken: req.config.get(CONFIG_KEYS.apiToken),
    organizationId: req.config.get(CONFIG_KEYS.organizationId),
    preflight: req.config.get(CONFIG_KEYS.preflight),
  });
}

/** The current operation's client of the stack-wide settings (the CLI's requests). */
export function apiClient() {
  return operation.connections.apiClient();
}

/**
 * The stack-wide client and the listings every read of the current operation shares: a walk of the organization
 * (`docs-platform import`) enumerates objects through them, so the reads that follow cost no further request.
 */
export function sharedContext() {
  return operation.context();
}

export const kinds = [...byName.keys()];
