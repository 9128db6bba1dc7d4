// The Pothos schema builder every GraphQL type and field is defined with: the request context, the
// Prisma plugin (relations of the analytics graph load through it), and the scalars in use.
import SchemaBuilder from "@pothos/core";
import PrismaPlugin from "@pothos/plugin-prisma";
import type PrismaTypes from "@adgen/prisma/pothos-types";
import { getDatamodel } from "@adgen/prisma/pothos-types";
import { GraphQLScalarType } from "graphql";
import type { RequestContext } from "../context.ts";

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

export type Builder = PothosSchemaTypes.SchemaBuilder<PothosSchemaTypes.ExtendDefaultTypes<SchemaTypes>>;

/** A fresh builder: the schema is built once per process (graphql/schema.ts), tests may build more. */
export function createBuilder(): Builder {
  const builder = new SchemaBuilder<SchemaTypes>({
    plugins: [PrismaPlugin],
    defaultFieldNullability: false,
    prisma: {
      client: (ctx) => ctx.services.prisma,
      dmmf: getDatamodel(),
      filterConnectionTotalCount: true,
      onUnusedQuery: null,
    },
  });
  builder.addScalarType("JSON", JSONScalar);
  return builder;
}
