import type { Route } from "../types";

export const openApiRoutes: Route[] = [];
