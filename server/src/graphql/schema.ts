// The GraphQL schema, built with Pothos: the operation catalogue's root fields (graphql/catalogue) and the
// analytics graph partners read (graphql/graph: `viewer` → projects, creatives, invoices, …).
import type { GraphQLSchema } from "graphql";
import { createBuilder } from "./builder.ts";
import { addCatalogueFields } from "./catalogue/fields.ts";
import { addAnalyticsGraph } from "./graph/viewer.ts";
import { describeSchema } from "./describe-schema.ts";

export type { GraphQLContext } from "./builder.ts";
export { graphqlFieldName } from "./catalogue/names.ts";

export function buildSchema(): GraphQLSchema {
  const builder = createBuilder();
  builder.queryType({ description: "What can be read: the operation catalogue's queries." });
  builder.mutationType({ description: "What can be changed: the operation catalogue's mutations." });
  builder.subscriptionType({ description: "What can be followed as it happens: the catalogue's streams." });
  addCatalogueFields(builder);
  addAnalyticsGraph(builder);
  const schema = builder.toSchema({ sortSchema: false });
  // Paging arguments, node(s), totalCount, and the glossary for fields their schema left undescribed.
  describeSchema(schema);
  return schema;
}

let built: GraphQLSchema | null = null;
/** The schema, built on first use: building it takes about 150 ms, which a start need not wait for. */
export function graphQLSchema(): GraphQLSchema {
  built ??= buildSchema();
  return built;
}
