// The depth limit, counted in levels of data: a field with a selection is a level, and so is a leaf. A
// Relay connection's wrappers (`edges`, an edge's `node`, `pageInfo`) are not levels of their own, nor are
// fragments: `viewer { brands { edges { node { projects { … } } } } }` is as deep as
// `viewer { brands { projects { … } } }` reads. The graph's cycles (introspection's `__type` → `ofType` …)
// still count every level. `__schema` is exempt, as introspection is answered from the schema alone.
import {
  type ASTVisitor,
  type FragmentDefinitionNode,
  getNamedType,
  GraphQLError,
  type GraphQLNamedType,
  isInterfaceType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
} from "graphql";

/** A field that only wraps a connection's rows: not a level of data. */
function isWrapper(parent: GraphQLNamedType, field: string): boolean {
  if (parent.name.endsWith("Connection")) return field === "edges" || field === "pageInfo";
  if (parent.name.endsWith("Edge")) return field === "node";
  return false;
}

function selectionDepth(
  set: SelectionSetNode,
  parent: GraphQLNamedType | undefined,
  context: ValidationContext,
  depth: number,
  seen: ReadonlySet<string>,
): number {
  let deepest = depth;
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      const name = selection.name.value;
      if (name === "__schema") continue;
      const fields = parent && (isObjectType(parent) || isInterfaceType(parent)) ? parent.getFields() : undefined;
      const definition = fields?.[name];
      const type = definition ? getNamedType(definition.type) : undefined;
      const level = parent && isWrapper(parent, name) ? depth : depth + 1;
      deepest = Math.max(deepest, selection.selectionSet ? selectionDepth(selection.selectionSet, type, context, level, seen) : level);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      const on = selection.typeCondition ? (context.getSchema().getType(selection.typeCondition.name.value) ?? parent) : parent;
      deepest = Math.max(deepest, selectionDepth(selection.selectionSet, on, context, depth, seen));
    } else {
      const name = selection.name.value;
      const fragment: FragmentDefinitionNode | null | undefined = context.getFragment(name);
      if (!fragment || seen.has(name)) continue; // a cycle of fragments is another rule's error
      const on = context.getSchema().getType(fragment.typeCondition.name.value) ?? parent;
      deepest = Math.max(deepest, selectionDepth(fragment.selectionSet, on, context, depth, new Set([...seen, name])));
    }
  }
  return deepest;
}

/** How deep an operation reads, in levels of data. */
export function operationDepth(operation: OperationDefinitionNode, context: ValidationContext): number {
  const root = context.getSchema().getRootType(operation.operation) ?? undefined;
  return selectionDepth(operation.selectionSet, root, context, 0, new Set());
}

/**
 * A validation rule refusing an operation deeper than `max` levels. It throws, as graphql-armor's rule did:
 * the document is refused before any other rule's work, with the same message.
 */
export function depthLimitRule(max: number) {
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(operation) {
      const depth = operationDepth(operation, context);
      if (depth > max) throw new GraphQLError(`Syntax Error: Query depth limit of ${max} exceeded, found ${depth}.`);
    },
  });
}
