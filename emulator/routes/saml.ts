import type { Route } from "../types";

export const samlRoutes: Route[] = [];
