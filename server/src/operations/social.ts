// Social accounts a finished ad can be published to (`publish: true`): connect a Facebook Page with a Page
// access token (checked with the Graph API), list, disconnect.
import { Ok, SocialAccount, SocialAccountIdInput, SocialAccountInput } from "@adgen/schema";
import { z } from "zod";
import { connectSocialAccount, disconnectSocialAccount, listSocialAccounts } from "../modules/social/social-accounts.ts";
import { defineOperation, NoInput } from "./operation.ts";
import { signedIn } from "./signed-in.ts";

const tag = "Social";

export const socialOperations = {
  list: defineOperation({
    access: "user",
    summary: "The connected social accounts (never their tokens)",
    kind: "query",
    input: NoInput,
    output: z.array(SocialAccount),
    rest: { method: "GET", path: "/user/social", tag },
    handler: (ctx) => listSocialAccounts(ctx.services, signedIn(ctx)),
  }),
  connect: defineOperation({
    access: "user",
    summary: "Connect a Facebook Page with a Page access token, checked with the Graph API",
    kind: "mutation",
    input: SocialAccountInput,
    output: SocialAccount,
    rest: { method: "POST", path: "/user/social", tag, errors: { 400: "A wrong Page id or token", 503: "Publishing is not set up here" } },
    handler: (ctx, input) => connectSocialAccount(ctx.services, signedIn(ctx), input),
  }),
  disconnect: defineOperation({
    access: "user",
    summary: "Disconnect a social account",
    kind: "mutation",
    input: SocialAccountIdInput,
    output: Ok,
    rest: { method: "DELETE", path: "/user/social/{id}", tag, from: "query", errors: { 404: "No such connected account" } },
    handler: (ctx, input) => disconnectSocialAccount(ctx.services, signedIn(ctx), input),
  }),
};
