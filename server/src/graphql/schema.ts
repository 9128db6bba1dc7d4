// The GraphQL schema, built with Pothos: the operation catalogue's root fields (graphql/catalogue) and the
// analytics graph partners read (graphql/graph: `viewer` → projects, creatives, invoices, …).
import { type GraphQLSchema, isObjectType } from "graphql";
import { createBuilder } from "./builder.ts";
import { addCatalogueFields } from "./catalogue/fields.ts";
import { addAnalyticsGraph } from "./graph/viewer.ts";

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
  // The Prisma plugin's `totalCount` takes no description option: it gets one here.
  for (const type of Object.values(schema.getTypeMap())) {
    const total = isObjectType(type) && type.name.endsWith("Connection") ? type.getFields().totalCount : undefined;
    if (total && !total.description) total.description = "How many rows the whole list holds (with its filters), across every page.";
  }
  return schema;
}

let built: GraphQLSchema | null = null;
/** The schema, built on first use: building it takes about 150 ms, which a start need not wait for. */
export function graphQLSchema(): GraphQLSchema {
  built ??= buildSchema();
  return built;
}
