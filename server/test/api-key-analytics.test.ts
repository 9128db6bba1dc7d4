// Read-only ("analytics") API keys: a partner's key reads the account on every transport and
// gets 403 FORBIDDEN on every mutation and upload of the catalogue, on REST, tRPC and GraphQL alike, since
// the scope is checked in the one invocation path before any input is read.
import {
  getNamedType,
  type GraphQLArgument,
  type GraphQLInputType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
} from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { graphqlFieldName, graphQLSchema } from "../src/graphql/schema.ts";
import { operations } from "../src/operations/catalogue.ts";
import { served } from "../src/operations/operation.ts";
import { type Account, ADMIN_ENV, adminClient, signUp } from "./support/accounts.ts";
import { graphql } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
let owner: Account;
let analyticsKey: string;
let fullKey: string;
const READ_ONLY = "This API key is read-only (analytics): it may read the account, not change it.";

beforeAll(async () => {
  app = await startTestApp({ ...ADMIN_ENV });
  owner = await signUp(app, "partner-owner");
  const admin = await adminClient(app);
  expect((await admin.patch(`/admin/users/${owner.id}`, { current_plan_id: "subscription_agency" })).status).toBe(200);
  const made = await owner.client.post("/user/api-key", { scope: "analytics" });
  expect(made.body.data.scope).toBe("analytics");
  analyticsKey = made.body.data.apiKey;
  fullKey = (await owner.client.post("/user/api-key")).body.data.apiKey;
});
afterAll(async () => {
  await app?.close();
});

const writes = operations.filter((op) => op.kind === "mutation" || op.kind === "upload");
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** A value of a GraphQL input type that passes validation (what the resolver would do with it does not matter). */
function sample(type: GraphQLInputType): unknown {
  if (isNonNullType(type)) return sample(type.ofType);
  if (isListType(type)) return [sample(type.ofType)];
  if (isEnumType(type)) return type.getValues()[0]!.value;
  if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields()).filter((f) => isNonNullType(f.type));
    return Object.fromEntries(fields.map((f) => [f.name, sample(f.type)]));
  }
  if (isScalarType(type)) return { Int: 1, Float: 1, Boolean: true }[type.name] ?? "x";
  return null;
}

describe("a read-only (analytics) API key", () => {
  it("reads the account on REST, tRPC and GraphQL", async () => {
    const rest = await fetch(`${app.url}/api/user/profile`, { headers: bearer(analyticsKey) });
    expect(rest.status).toBe(200);
    const trpc = await fetch(`${app.url}/trpc/user.profile`, { headers: bearer(analyticsKey) });
    expect(trpc.status).toBe(200);
    const gql = await graphql(app.url, `{ userProfile { id } viewer { accountId projects(first: 5) { totalCount } } }`, {}, analyticsKey);
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.viewer.accountId).toBe(owner.id);
  });

  it(`gets 403 FORBIDDEN on every one of the catalogue's ${writes.length} mutations and uploads, on every transport`, async () => {
    expect(writes.length).toBeGreaterThan(20);
    const mutationFields = graphQLSchema().getMutationType()!.getFields();
    const refusals: string[] = [];
    for (const op of writes) {
      if (served(op.rest)) {
        const path = op.rest.path.replace(/\{[^}]+\}/g, "00000000-0000-4000-8000-000000000000");
        const res = await fetch(`${app.url}/api${path}`, {
          method: op.rest.method,
          headers: { ...bearer(analyticsKey), "content-type": "application/json" },
          body: op.rest.method === "GET" ? undefined : "{}",
        });
        const body = (await res.json().catch(() => null)) as { error?: string } | null;
        if (res.status !== 403 || body?.error !== READ_ONLY) refusals.push(`REST ${op.name}: ${res.status} ${JSON.stringify(body)}`);
      }
      if (!op.trpc && op.kind === "mutation") {
        const res = await fetch(`${app.url}/trpc/${op.name}`, {
          method: "POST",
          headers: { ...bearer(analyticsKey), "content-type": "application/json" },
          body: "{}",
        });
        const body = (await res.json()) as { error?: { message?: string; data?: { code?: string } } };
        if (res.status !== 403 || body.error?.data?.code !== "FORBIDDEN")
          refusals.push(`tRPC ${op.name}: ${res.status} ${JSON.stringify(body)}`);
      }
      const field = mutationFields[graphqlFieldName(op.name)];
      if (field) {
        const required = field.args.filter((arg: GraphQLArgument) => isNonNullType(arg.type));
        const variables = Object.fromEntries(required.map((arg) => [arg.name, sample(arg.type)]));
        const declared = required.map((arg) => `$${arg.name}: ${arg.type.toString()}`).join(", ");
        const passed = required.map((arg) => `${arg.name}: $${arg.name}`).join(", ");
        const selection =
          getNamedType(field.type).toString() === "Boolean" || !("getFields" in getNamedType(field.type)) ? "" : " { __typename }";
        const document = `mutation${declared ? `(${declared})` : ""} { ${field.name}${passed ? `(${passed})` : ""}${selection} }`;
        const res = await graphql(app.url, document, variables, analyticsKey);
        const error = res.body.errors?.[0];
        if (error?.extensions?.code !== "FORBIDDEN" || error.message !== READ_ONLY)
          refusals.push(`GraphQL ${op.name}: ${JSON.stringify(res.body)}`);
      }
    }
    expect(refusals).toEqual([]);
  });

  it("leaves the account's full key as it was: it still changes things", async () => {
    const res = await fetch(`${app.url}/api/user/provider-preference`, {
      method: "POST",
      headers: { ...bearer(fullKey), "content-type": "application/json" },
      body: JSON.stringify({ preference: "balanced" }),
    });
    expect(res.status, await res.text()).not.toBe(403);
  });
});
