import type { Route } from "../types";

export const sectionGroupRoutes: Route[] = [];
