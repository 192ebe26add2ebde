import type { Route } from "../types";

export const teamRoutes: Route[] = [];
