import { providerFor } from "../framework/dynamic";

export = providerFor("SiteSpaceCustomization");
