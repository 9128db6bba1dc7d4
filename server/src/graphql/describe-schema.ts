// Descriptions the builder cannot attach where the fields are made: the Relay plugin's paging arguments
// and `node(id:)` / `nodes(ids:)`, the Prisma plugin's `totalCount`, and the glossary's sentence for a
// catalogue field or argument whose schema left it undescribed (field-glossary.ts). Run once on the built
// schema (schema.ts); a description already written is kept.
import {
  type GraphQLArgument,
  type GraphQLNamedType,
  type GraphQLSchema,
  type GraphQLType,
  getNamedType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
} from "graphql";
import { MAX_PAGE } from "./builder.ts";
import { describeFromGlossary, restatesName } from "./field-glossary.ts";

const DEFAULT_PAGE = 20;

const PAGING: Record<string, string> = {
  first: `How many rows to answer from the start of the list (or after \`after\`): an integer from 0 to ${MAX_PAGE}; ${DEFAULT_PAGE} when neither \`first\` nor \`last\` is given.`,
  last: `How many rows to answer from the end of the list (or before \`before\`): an integer from 0 to ${MAX_PAGE}.`,
  after:
    "A row's `cursor` (or a page's `endCursor`): the page starts after that row. Absent: from the start. Cursors are opaque; a cursor from another list is refused with 400.",
  before: "A row's `cursor` (or a page's `startCursor`): the page ends before that row. Absent: up to the end.",
};

function describeArgument(arg: GraphQLArgument, description: string): void {
  if (restatesName(arg.name, arg.description)) arg.description = description;
}

export function describeSchema(schema: GraphQLSchema): void {
  const query = schema.getQueryType();
  const node = query?.getFields().node;
  for (const arg of node?.args ?? []) {
    describeArgument(arg, "A global id, as any type's `id` field answers it (opaque; not the id REST and tRPC use).");
  }
  for (const arg of query?.getFields().nodes?.args ?? []) {
    describeArgument(
      arg,
      "Global ids, as the types' `id` fields answer them; the answer has one entry per id, in their order (null where the caller may not read it).",
    );
  }
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith("__")) continue;
    if (!(isObjectType(type) || isInterfaceType(type) || isInputObjectType(type))) continue;
    const total = isObjectType(type) && type.name.endsWith("Connection") ? type.getFields().totalCount : undefined;
    if (total && !total.description) total.description = "How many rows the whole list holds (with its filters), across every page.";
    for (const field of Object.values(type.getFields())) {
      if (restatesName(field.name, field.description)) {
        field.description = describeFromGlossary(field.name, type.name, field.description) ?? field.description;
      }
      if (!("args" in field)) continue;
      const connection = (getNamedType(field.type as GraphQLType) as GraphQLNamedType).name.endsWith("Connection");
      for (const arg of field.args) {
        if (connection && PAGING[arg.name]) describeArgument(arg, PAGING[arg.name]!);
        else if (restatesName(arg.name, arg.description)) {
          arg.description = describeFromGlossary(arg.name, field.name, arg.description) ?? arg.description;
        }
      }
    }
  }
}
