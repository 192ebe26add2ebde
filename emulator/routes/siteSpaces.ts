import type { Route } from "../types";

export const siteSpaceRoutes: Route[] = [];
