import type { HttpClient } from "../client";
import { Adoptions } from "./adoptions";
import { ChangeNotes } from "./changeNotes";
import { Companions } from "./companions";
import { clientOf, type ResourceConnection } from "./connection";
import { DriftAttribution } from "./driftAttribution";
import type { KindDefinition, Props, ResourceContext } from "./kind";
import { Lifecycle } from "./lifecycle";
import { Listings } from "./listings";
import { type Notice, writeAtExit } from "./notices";
import { PreflightCache } from "./preflight";
import { CrossResourceRules } from "./programRules";
import { Connections } from "./settings";

/**
 * Everything one engine operation accumulates in its provider process: the clients, the listings shared by reads,
 * what preflight loaded, and what check, diff and create saw of the program's resources for the rules that relate
 * resources to each other (duplicates, companions, expectations of a referenced resource, adoption tallies, notes told
 * once). The engine starts a provider process per operation, so the runtime (../runtime.ts) makes one per process and
 * hands it to every kind's Lifecycle; a test makes a fresh one where a new operation starts. The behaviour stays in
 * the modules that own each part: this object only holds them together and ends them together.
 */
export class Operation {
  readonly connections = new Connections();
  readonly preflight = new PreflightCache();
  readonly crossResource = new CrossResourceRules();
  readonly companions = new Companions();
  readonly adoptions = new Adoptions();
  readonly changeNotes = new ChangeNotes();
  readonly driftAttribution = new DriftAttribution();
  /** Listings of the stack-wide client, shared by every read of this operation (and the CLI's walk). */
  private readonly listings = new Listings();
  /** Listings of resources with their own connection (./connection.ts), one set per client. */
  private readonly connectedListings = new Map<HttpClient, Listings>();
  // biome-ignore lint/suspicious/noExplicitAny: kinds have different input and state types.
  private readonly lifecycles = new Map<string, Lifecycle<any, any>>();
  private tellingAtExit = false;
  private readonly kinds: ReadonlyMap<string, KindDefinition>;

  /** `kinds`: the registry, for the rules that look at another kind's definition (preflight's references). */
  constructor(kinds: readonly KindDefinition[]) {
    this.kinds = new Map(kinds.map((definition) => [definition.kind, definition]));
  }

  /** A kind's definition, by name. */
  definition(kind: string): KindDefinition | undefined {
    return this.kinds.get(kind);
  }

  /** The lifecycle of a kind in this operation: one per kind, so that all its resources share this operation. */
  lifecycle<Inputs extends Props, State extends Props>(
    definition: KindDefinition<Inputs, State>,
  ): Lifecycle<Inputs, State> {
    let found = this.lifecycles.get(definition.kind);
    if (!found) {
      found = new Lifecycle(definition, this);
      this.lifecycles.set(definition.kind, found);
    }
    return found;
  }

  /** The client and listings of a resource: its own connection's, or the stack-wide ones. */
  context(connection?: ResourceConnection): ResourceContext {
    const context = connection === undefined ? this.stackWide() : this.connected(connection);
    // The client's writes drop the listings they can change (./listings.ts), whoever sends them (a lifecycle, the CLI).
    context.listings.follow(context.client);
    return context;
  }

  private stackWide(): ResourceContext {
    return { client: this.connections.apiClient(), listings: this.listings };
  }

  private connected(connection: ResourceConnection): ResourceContext {
    const client = clientOf(this.connections, connection);
    let own = this.connectedListings.get(client);
    if (!own) {
      own = new Listings();
      this.connectedListings.set(client, own);
    }
    return { client, listings: own };
  }

  /** What is only known once the operation is over: the adoptions made or announced, then missing companions. */
  closingNotices(): Notice[] {
    return [...this.adoptions.notices(), ...this.companions.warnings()];
  }

  /** Writes the closing notices when the provider process ends (`configure` calls it; once is enough). */
  tellAtExit(): void {
    if (this.tellingAtExit) return;
    this.tellingAtExit = true;
    writeAtExit(() => this.closingNotices());
  }

  /** Closes the clients: nothing of this operation is used after it. */
  close(): void {
    this.connections.close();
  }
}
