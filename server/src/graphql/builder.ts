// The Pothos schema builder every GraphQL type and field is defined with: the request context, the
// Prisma plugin (relations of the analytics graph load through it), the dataloader plugin (what is not a
// Prisma relation, or is summed in SQL, loads once per page of parents), and the scalars in use.
import SchemaBuilder from "@pothos/core";
import DataloaderPlugin from "@pothos/plugin-dataloader";
import PrismaPlugin from "@pothos/plugin-prisma";
import RelayPlugin from "@pothos/plugin-relay";
import type PrismaTypes from "@adgen/prisma/pothos-types";
import { getDatamodel } from "@adgen/prisma/pothos-types";
import { GraphQLScalarType } from "graphql";
import type { RequestContext } from "../request-context.ts";

/** What every resolver receives: who is asking, and the request's headers. */
export interface GraphQLContext extends RequestContext {
  headers: Headers;
}

export interface SchemaTypes {
  Context: GraphQLContext;
  PrismaTypes: PrismaTypes;
  Scalars: { JSON: { Input: unknown; Output: unknown } };
  DefaultFieldNullability: false;
  DefaultInputFieldRequiredness: false;
}

/** Data that is really free-form (a record keyed by data, provider metadata). */
export const JSONScalar = new GraphQLScalarType({
  name: "JSON",
  description: "Free-form JSON (records keyed by data, provider metadata)",
  serialize: (value) => value,
  parseValue: (value) => value,
});

/** The most rows one page of a connection holds (`first`/`last` above it is refused). */
export const MAX_PAGE = 100;

export type Builder = PothosSchemaTypes.SchemaBuilder<PothosSchemaTypes.ExtendDefaultTypes<SchemaTypes>>;

/** A fresh builder: the schema is built once per process (graphql/schema.ts), tests may build more. */
export function createBuilder(): Builder {
  const builder = new SchemaBuilder<SchemaTypes>({
    plugins: [RelayPlugin, PrismaPlugin, DataloaderPlugin],
    defaultFieldNullability: false,
    relay: {
      clientMutationId: "omit",
      cursorType: "String",
      nodeTypeOptions: { description: "Something with a global id, readable again with `node(id:)`." },
      pageInfoTypeOptions: { description: "Where a page of a connection stands in the whole list." },
      nodeQueryOptions: { description: "The node with this global id, if the caller may read it (null otherwise)." },
      nodesQueryOptions: { description: "The nodes with these global ids; null for each the caller may not read." },
      idFieldOptions: { description: "The global id (for `node(id:)`)." },
      edgesFieldOptions: { description: "The rows of this page, each with its cursor." },
      pageInfoFieldOptions: { description: "Where this page stands in the whole list." },
      nodeFieldOptions: { description: "The row." },
      cursorFieldOptions: { description: "Where this row stands: pass it as `after` or `before` for the next page." },
      hasNextPageFieldOptions: { description: "Whether rows follow this page." },
      hasPreviousPageFieldOptions: { description: "Whether rows precede this page." },
      startCursorFieldOptions: { description: "The first row's cursor." },
      endCursorFieldOptions: { description: "The last row's cursor." },
    },
    prisma: {
      client: (ctx) => ctx.services.prisma,
      dmmf: getDatamodel(),
      filterConnectionTotalCount: true,
      onUnusedQuery: null,
      // A page holds at most 100 rows; 20 unless asked.
      maxConnectionSize: MAX_PAGE,
      defaultConnectionSize: 20,
    },
  });
  builder.addScalarType("JSON", JSONScalar);
  return builder;
}
