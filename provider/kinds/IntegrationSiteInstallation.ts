import { providerFor } from "../framework/dynamic";

export = providerFor("IntegrationSiteInstallation");
