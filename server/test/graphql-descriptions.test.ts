// The GraphQL schema explains itself to a partner: what a value means, its unit, its range, when it is null.
// A description that only restates its field's name ("jobId" → "job id.") says nothing, and fails here:
// for every argument, for the paging arguments, `node` and `nodes`, and for every field of the partner
// graph (what `viewer` reaches). The catalogue's other fields are held to what they have reached: the
// number still undescribed may only fall (field-glossary.ts and the schemas' own descriptions).
import { type GraphQLNamedType, type GraphQLType, getNamedType, isInputObjectType, isInterfaceType, isObjectType } from "graphql";
import { describe, expect, it } from "vitest";
import { restatesName } from "../src/graphql/field-glossary.ts";
import { buildSchema } from "../src/graphql/schema.ts";

const schema = buildSchema();
const withFields = (type: GraphQLNamedType) => isObjectType(type) || isInterfaceType(type) || isInputObjectType(type);
const ownTypes = Object.values(schema.getTypeMap()).filter((type) => !type.name.startsWith("__") && withFields(type)) as any[];

/** Every field as `Type.field`, with its description. */
const fields = ownTypes.flatMap((type) => Object.values<any>(type.getFields()).map((field) => ({ type: type.name, field })));
const restating = (list: typeof fields) =>
  list
    .filter(({ field }) => restatesName(field.name, field.description))
    .map(({ type, field }) => `${type}.${field.name}: ${field.description}`);

/** The types a partner reads from `viewer`, following every field (the partner graph). */
function partnerGraph(): Set<string> {
  const seen = new Set<string>();
  const visit = (type: GraphQLNamedType) => {
    if (seen.has(type.name) || !withFields(type)) return;
    seen.add(type.name);
    for (const field of Object.values<any>((type as any).getFields())) visit(getNamedType(field.type as GraphQLType) as GraphQLNamedType);
  };
  visit(getNamedType(schema.getQueryType()!.getFields().viewer!.type));
  return seen;
}

describe("GraphQL descriptions", () => {
  it("tell a restated name from a description", () => {
    expect(restatesName("jobId", "job id.")).toBe(true);
    expect(restatesName("credits_balance", "credits balance. (REST and tRPC: `credits_balance`)")).toBe(true);
    expect(restatesName("totalCount", undefined)).toBe(true);
    expect(restatesName("jobId", "The job's id (a UUID), as `workflowLaunch` answered it.")).toBe(false);
  });

  it("describe node, nodes and the paging arguments of every connection: meaning, range and default", () => {
    const query = schema.getQueryType()!.getFields();
    expect(query.node!.args[0]!.description).toMatch(/global id/i);
    expect(query.nodes!.args[0]!.description).toMatch(/global ids/i);
    const connections = fields.filter(
      ({ field }) => "args" in field && (getNamedType(field.type as GraphQLType) as GraphQLNamedType).name.endsWith("Connection"),
    );
    expect(connections.length).toBeGreaterThanOrEqual(8);
    for (const { type, field } of connections) {
      const args = Object.fromEntries(field.args.map((arg: any) => [arg.name, arg.description as string]));
      expect(args.first, `${type}.${field.name}(first)`).toMatch(/from 0 to 100; 20 when/);
      expect(args.last, `${type}.${field.name}(last)`).toMatch(/from 0 to 100/);
      expect(args.after, `${type}.${field.name}(after)`).toMatch(/cursor/);
      expect(args.before, `${type}.${field.name}(before)`).toMatch(/cursor/);
    }
  });

  it("describe every argument of every field", () => {
    const bare = fields.flatMap(({ type, field }) =>
      (field.args ?? [])
        .filter((arg: any) => restatesName(arg.name, arg.description))
        .map((arg: any) => `${type}.${field.name}(${arg.name})`),
    );
    expect(bare).toEqual([]);
  });

  it("describe every field of the partner graph", () => {
    const graph = partnerGraph();
    expect(graph.size).toBeGreaterThan(15);
    expect(restating(fields.filter(({ type }) => graph.has(type)))).toEqual([]);
  });

  it("leave no more catalogue fields undescribed than they do now", () => {
    // 1,209 of 1,655 fields restated their names before the glossary; this number may only fall.
    expect(restating(fields).length).toBeLessThanOrEqual(350);
  });
});
