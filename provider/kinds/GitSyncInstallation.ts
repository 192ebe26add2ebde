import { providerFor } from "../framework/dynamic";

export = providerFor("GitSyncInstallation");
