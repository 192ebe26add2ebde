import { providerFor } from "../framework/dynamic";

export = providerFor("SiteChannel");
