import type { Route } from "../types";

export const siteSectionRoutes: Route[] = [];
