/** Roles, from least to most: what a member or a default level grants. */
export const ROLES = ["read", "comment", "review", "edit", "create", "admin"] as const;
/** A collection's or site's default level: a role, or `inherit` from the parent (the official document adds it). */
export const DEFAULT_LEVELS = [...ROLES, "inherit"] as const;
