import { providerFor } from "../framework/dynamic";

export = providerFor("SiteContextConnection");
