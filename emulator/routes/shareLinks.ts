import type { Route } from "../types";

export const shareLinkRoutes: Route[] = [];
