/**
 * Spaces: GET/PATCH/DELETE /spaces/{spaceId}, POST /spaces/{spaceId}/move, POST /spaces/{spaceId}/restore,
 * GET/POST /orgs/{organizationId}/spaces.
 */

import { BadRequestError, NotFoundError } from "../../errors";
import { paginate } from "../../pagination";
import type { Route } from "../../types";
import { defaultLevel, mergeRules, nullable, oneOfValues, opt, parseBody, str, url } from "../../validate";
import { created, deleted, given, ok, param, requireOrg, requireSpace } from "../common";
import { computedSourceOf } from "./computedSource";
import { parseMove } from "./contentTree";
import type { SpaceRec } from "./records";
import { renderSpace, spaceLocation } from "./render";

const spaceTitle = str({ max: 50 });
/** The official `Emoji`: a code point or the character, at most 50 characters (`""`: none). */
const emoji = str({ max: 50 });
const editMode = oneOfValues(["live", "locked"] as const);
/** The official `TranslationLanguage`. */
const language = oneOfValues([
  ...["en", "fr", "de", "es", "it", "pt", "pt-br", "ru", "ja", "zh", "zh-tw", "yue", "ko", "ar", "hi", "nl", "pl"],
  ...["tr", "sv", "no", "da", "fi", "el", "cs", "hu", "ro", "th", "vi", "id", "ms", "he", "uk", "sk", "bg", "hr"],
  ...["lt", "lv", "et", "sl"],
] as const);

export const spaceRoutes: Route[] = [
  {
    method: "GET",
    path: "/v1/spaces/{spaceId}",
    handler: (ctx) => ok(renderSpace(ctx.env, ctx.store, requireSpace(ctx))),
  },
  {
    method: "PATCH",
    path: "/v1/spaces/{spaceId}",
    handler: (ctx) => {
      const space = requireSpace(ctx);
      const body = parseBody(
        ctx.body,
        {
          title: opt(spaceTitle),
          editMode: opt(editMode),
          defaultLevel: opt(defaultLevel),
          language: opt(language),
          emoji: opt(nullable(emoji)),
          icon: opt(nullable(url)),
          mergeRules: opt(mergeRules({ inherit: true })),
        },
        { required: true },
      );
      // The official body is one of {emoji}, {icon} or {emoji: null, icon: null}.
      if (typeof body.emoji === "string" && typeof body.icon === "string") {
        throw new BadRequestError("icon: must not be set together with emoji");
      }
      let look: Partial<Pick<SpaceRec, "icon" | "emoji">> = {};
      if (typeof body.icon === "string") look = { icon: body.icon, emoji: "" };
      else if (typeof body.emoji === "string") look = { emoji: body.emoji, icon: undefined };
      else if (body.emoji === null || body.icon === null) look = { emoji: "", icon: undefined };
      const { title } = body;
      const plain = { editMode: body.editMode, defaultLevel: body.defaultLevel, mergeRules: body.mergeRules };
      ctx.store.update("spaces", space, {
        ...given({ title, language: body.language, ...plain }),
        ...look,
        updatedAt: ctx.store.now(),
      });
      return ok(renderSpace(ctx.env, ctx.store, space));
    },
  },
  {
    method: "DELETE",
    path: "/v1/spaces/{spaceId}",
    handler: (ctx) => deleted(ctx.store.deleteSpace(param(ctx, "spaceId"))),
  },
  {
    method: "POST",
    path: "/v1/spaces/{spaceId}/restore",
    handler: (ctx) => {
      const id = param(ctx, "spaceId");
      const space = ctx.store.restoreSpace(id);
      if (!space) throw new NotFoundError(`Space "${id}" not found among the spaces deleted in the last 7 days`);
      return ok(renderSpace(ctx.env, ctx.store, space));
    },
  },
  {
    method: "POST",
    path: "/v1/spaces/{spaceId}/move",
    handler: (ctx) => {
      const space = requireSpace(ctx);
      const { parentId, position } = parseMove(ctx.store, space, ctx.body);
      ctx.store.moveInContentTree({ kind: "space", rec: space }, parentId, position);
      return ok(renderSpace(ctx.env, ctx.store, space));
    },
  },
  {
    method: "GET",
    path: "/v1/orgs/{organizationId}/spaces",
    handler: (ctx) => {
      const org = requireOrg(ctx);
      const spaces = [...ctx.store.spaces.values()].filter((s) => s.orgId === org.id && !s.deletedAt);
      return ok(paginate(ctx, spaces, (s) => renderSpace(ctx.env, ctx.store, s)));
    },
  },
  {
    method: "POST",
    path: "/v1/orgs/{organizationId}/spaces",
    handler: (ctx) => {
      const org = requireOrg(ctx);
      // Templates (the rest of the official CreateSpace) are not emulated: unknown fields → 400.
      const body = parseBody(ctx.body, {
        title: opt(spaceTitle),
        emoji: opt(emoji),
        parent: opt(str({ min: 1 })),
        language: opt(language),
        editMode: opt(editMode),
        computedSource: opt(computedSourceOf(ctx.store, org.id)),
      });
      const space = ctx.store.createSpace(org.id, body.title ?? "Untitled", {
        emoji: body.emoji ?? "",
        parentId: body.parent,
        language: body.language,
        editMode: body.editMode,
        // Kept, never rendered: the official Space reports no computed source.
        computedSource: body.computedSource,
      });
      return created(renderSpace(ctx.env, ctx.store, space), spaceLocation(ctx.env, space.id));
    },
  },
];
