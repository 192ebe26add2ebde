/** Renders the teams family's records into API objects carrying every field the official response schemas require. */

import type { Store } from "../../store";
import type { TeamRec } from "./records";

type Json = Record<string, unknown>;
export function renderTeam(_store: Store, t: TeamRec): Json {
  return {
    object: "team",
    id: t.id,
    title: t.title,
    members: t.members.size,
    spaces: 0,
    createdAt: t.createdAt,
    permissions: { admin: true, view: true },
  };
}
