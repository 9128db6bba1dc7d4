// A malformed cursor, page count or global id is the caller's mistake: every connection of the built
// schema (found by walking it, so a new one is covered the day it is added), `node`, `nodes` and every
// other ID argument answer BAD_USER_INPUT naming the argument, log it at info and never as a fault,
// over HTTP and over the WebSocket. Well-formed ones still read.
import { randomUUID } from "node:crypto";
import { type GraphQLField, type GraphQLObjectType, getNamedType, isObjectType } from "graphql";
import { createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { graphQLSchema } from "../src/graphql/schema.ts";
import { holdsGlobalIds, isConnectionField } from "../src/graphql/relay-arguments.ts";
import { createLogger } from "../src/logging/logger.ts";
import { ADMIN_EMAIL, ADMIN_ENV } from "./support/accounts.ts";
import { graphql } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

const written: string[] = [];
const logLines = () =>
  written
    .join("")
    .split("\n")
    .filter(Boolean)
    .map((text) => JSON.parse(text) as { level: string; msg: string; reason?: string });

let app: TestApp;
let token: string;

const base64 = (text: string) => Buffer.from(text).toString("base64");
/** A cursor of the kind this graph's lists give out, for a row that does not exist: an empty page, no error. */
const wellFormedCursor = () => base64(`GPC:S:${randomUUID()}`);

type Connection = { owner: GraphQLObjectType; field: GraphQLField<unknown, unknown>; wrap(inner: string): string };

/**
 * Every connection field of the schema, each with the shortest selection from `Query` that reaches it
 * (through other connections' `edges { node }`), so the test asks each one as a partner would.
 */
function everyConnection(): Connection[] {
  const schema = graphQLSchema();
  const query = schema.getQueryType()!;
  const reach = new Map<string, (inner: string) => string>([[query.name, (inner) => `{ ${inner} }`]]);
  const queue: GraphQLObjectType[] = [query];
  while (queue.length) {
    const type = queue.shift()!;
    const around = reach.get(type.name)!;
    for (const field of Object.values(type.getFields())) {
      if (field.args.some((arg) => arg.type.toString().endsWith("!"))) continue; // only fields reachable without inputs
      const target = getNamedType(field.type);
      if (!isObjectType(target)) continue;
      const row = isConnectionField(field) ? getNamedType(target.getFields().edges!.type) : null;
      const node = row && isObjectType(row) ? getNamedType(row.getFields().node!.type) : target;
      if (!isObjectType(node) || reach.has(node.name)) continue;
      reach.set(
        node.name,
        row ? (inner) => around(`${field.name} { edges { node { ${inner} } } }`) : (inner) => around(`${field.name} { ${inner} }`),
      );
      queue.push(node);
    }
  }
  const found: Connection[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith("__")) continue;
    for (const field of Object.values(type.getFields())) {
      if (!isConnectionField(field)) continue;
      const around = reach.get(type.name);
      if (!around) throw new Error(`${type.name}.${field.name} is a connection no query reaches: this test cannot ask it`);
      found.push({ owner: type, field, wrap: (args) => around(`${field.name}${args} { pageInfo { hasNextPage } }`) });
    }
  }
  return found;
}

const CONNECTIONS = everyConnection();

/** Every root field taking global ids (`node`, `nodes`, and any added later). */
const ID_FIELDS = Object.values(graphQLSchema().getQueryType()!.getFields()).filter((field) => field.args.some(holdsGlobalIds));

beforeAll(async () => {
  const logger = createLogger({ level: "info", destination: { write: (line: string) => void written.push(line) } });
  app = await startTestApp({ ...ADMIN_ENV }, { logger });
  const login = await graphql(app.url, `mutation($e: String!, $p: String!) { authLogin(email: $e, password: $p) { token } }`, {
    e: ADMIN_EMAIL,
    p: ADMIN_ENV.ADMIN_PASSWORD,
  });
  token = login.body.data.authLogin.token;
  // A brand, so the brand's own connection (`brands { edges { node { projects } } }`) is resolved, not skipped.
  const admin = await app.services.prisma.user.findUniqueOrThrow({ where: { email: ADMIN_EMAIL } });
  await app.services.prisma.brandProfile.create({ data: { userId: admin.id, isDefault: true, profile: { name: "House" } } });
});
afterAll(async () => {
  await app?.close();
});

/** Asks as the admin (who may read `accounts` too) and answers the errors' codes and messages. */
async function ask(query: string, variables: Record<string, unknown> = {}) {
  const res = await graphql(app.url, query, variables, token);
  const errors = res.body.errors ?? [];
  return { status: res.status, data: res.body.data, codes: errors.map((e) => e.extensions?.code), messages: errors.map((e) => e.message) };
}

describe("every connection of the schema", () => {
  it("walks them all: the account's lists, a brand's projects and the admin's accounts", () => {
    const names = CONNECTIONS.map(({ owner, field }) => `${owner.name}.${field.name}`);
    expect(names).toEqual(expect.arrayContaining(["Query.accounts", "Account.projects", "Account.brands", "AccountBrand.projects"]));
    expect(names.length).toBeGreaterThanOrEqual(8);
  });

  for (const { owner, field, wrap } of CONNECTIONS) {
    describe(`${owner.name}.${field.name}`, () => {
      it("refuses a malformed `after` literal as the caller's input, naming the argument", async () => {
        const res = await ask(`query ${wrap(`(after: "not-a-cursor")`)}`);
        expect(res.codes).toEqual(["BAD_USER_INPUT"]);
        expect(res.messages[0]).toMatch(/^after: not a cursor this list gave out/);
        expect(res.status).toBe(400);
      });

      it("refuses a `before` variable holding a cursor of another kind (a number chunk)", async () => {
        const res = await ask(`query($c: String) ${wrap("(before: $c)")}`, { c: base64("GPC:N:5") });
        expect(res.codes).toEqual(["BAD_USER_INPUT"]);
        expect(res.messages[0]).toMatch(/^before: not a cursor this list gave out/);
      });

      it("refuses a negative `first`", async () => {
        const res = await ask(`query($n: Int) ${wrap("(first: $n)")}`, { n: -1 });
        expect(res.codes).toEqual(["BAD_USER_INPUT"]);
        expect(res.messages[0]).toMatch(/^first: must be 0 or more/);
      });

      it("refuses `after` and `before` together as input, not as a fault", async () => {
        const res = await ask(`query($a: String, $b: String) ${wrap("(after: $a, before: $b)")}`, {
          a: wellFormedCursor(),
          b: wellFormedCursor(),
        });
        expect(res.codes).toEqual(["BAD_USER_INPUT"]);
        expect(res.messages[0]).toMatch(/before.*after/);
      });

      it("reads a page after a well-formed cursor", async () => {
        const res = await ask(`query($c: String) ${wrap("(after: $c, first: 5)")}`, { c: wellFormedCursor() });
        expect(res.messages).toEqual([]);
        expect(res.status).toBe(200);
      });
    });
  }
});

describe("global ids", () => {
  it("finds node and nodes among the fields taking global ids", () => {
    expect(ID_FIELDS.map((field) => field.name)).toEqual(expect.arrayContaining(["node", "nodes"]));
  });

  for (const field of ID_FIELDS) {
    it(`${field.name} refuses an id that is no global id, naming the argument`, async () => {
      const arg = field.args.find(holdsGlobalIds)!;
      const listed = arg.type.toString().startsWith("[");
      const res = await ask(`query($v: ${arg.type}) { ${field.name}(${arg.name}: $v) { __typename } }`, {
        v: listed ? ["not a global id"] : "not a global id",
      });
      expect(res.codes).toEqual(["BAD_USER_INPUT"]);
      expect(res.messages[0]).toMatch(new RegExp(`^${arg.name}(\\[0\\])?: not a global id`));
    });
  }

  it("node refuses a well-formed id of a type the graph does not have", async () => {
    const res = await ask(`{ node(id: "${base64("Spaceship:1")}") { __typename } }`);
    expect(res.codes).toEqual(["BAD_USER_INPUT"]);
    expect(res.messages[0]).toMatch(/^id: not a global id/);
  });

  it("nodes names which of its ids is malformed, and reads the good ones once fixed", async () => {
    const viewer = await ask(`{ viewer { id } }`);
    const good = viewer.data.viewer.id as string;
    const bad = await ask(`query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids: [good, "%%%"] });
    expect(bad.codes).toEqual(["BAD_USER_INPUT"]);
    expect(bad.messages[0]).toMatch(/^ids\[1\]: not a global id/);
    const fixed = await ask(`query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids: [good] });
    expect(fixed.messages).toEqual([]);
    expect(fixed.data.nodes).toEqual([{ id: good }]);
  });
});

describe("over the WebSocket", () => {
  it("answers a malformed cursor and id BAD_USER_INPUT there too", async () => {
    const client = createClient({
      url: `${app.url.replace(/^http/, "ws")}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${token}` },
      retryAttempts: 0,
    });
    try {
      for (const query of [`{ viewer { projects(after: "nope") { totalCount } } }`, `{ node(id: "nope") { id } }`]) {
        const results = [];
        for await (const result of client.iterate({ query })) results.push(result);
        expect(results.map((r) => r.errors?.map((e) => e.extensions?.code))).toEqual([["BAD_USER_INPUT"]]);
      }
    } finally {
      await client.dispose();
    }
  });
});

describe("the log", () => {
  it("holds the refusals at info and no fault", () => {
    const lines = logLines();
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.filter((line) => line.level === "error" || line.level === "fatal")).toEqual([]);
    const refusals = lines.filter((line) => line.msg === "graphql: input refused");
    expect(refusals.length).toBeGreaterThanOrEqual(CONNECTIONS.length * 4);
    expect(refusals.every((line) => line.level === "info")).toBe(true);
  });
});
