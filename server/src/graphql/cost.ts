// The cost limit: a query's cost is what it may read. A field costs 1, an object 2 plus its selection's
// cost, and a connection's selection counts once per row it may answer (`first` or `last`, 20 when
// neither is given, 100 when a variable gives it), so asking for more rows costs more. A page of more
// than MAX_PAGE rows is refused outright.
import {
  type ASTVisitor,
  type FieldNode,
  type FragmentDefinitionNode,
  getNamedType,
  GraphQLError,
  type GraphQLNamedType,
  isCompositeType,
  isInterfaceType,
  isObjectType,
  Kind,
  type SelectionSetNode,
  type ValidationContext,
} from "graphql";
import { MAX_PAGE } from "./builder.ts";

const DEFAULT_PAGE = 20;

/** How many rows a field may answer: its `first`/`last`, or 1 for anything but a connection. */
function rowsOf(field: FieldNode, type: GraphQLNamedType, context: ValidationContext): number {
  const pageArgs = (field.arguments ?? []).filter((arg) => arg.name.value === "first" || arg.name.value === "last");
  let rows = pageArgs.length === 0 && type.name.endsWith("Connection") ? DEFAULT_PAGE : 1;
  for (const arg of pageArgs) {
    const asked = arg.value.kind === Kind.INT ? Number(arg.value.value) : arg.value.kind === Kind.VARIABLE ? MAX_PAGE : DEFAULT_PAGE;
    if (asked > MAX_PAGE) {
      context.reportError(
        new GraphQLError(`\`${arg.name.value}\` may ask for at most ${MAX_PAGE} rows a page, not ${asked}.`, { nodes: [arg] }),
      );
    }
    rows = Math.max(rows, Math.min(asked, MAX_PAGE));
  }
  return rows;
}

function selectionCost(set: SelectionSetNode | undefined, parent: GraphQLNamedType, context: ValidationContext, seen: Set<string>): number {
  if (!set) return 0;
  let total = 0;
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      if (selection.name.value.startsWith("__")) continue;
      const fields = isObjectType(parent) || isInterfaceType(parent) ? parent.getFields() : {};
      const definition = fields[selection.name.value];
      if (!definition) continue;
      const type = getNamedType(definition.type);
      if (!isCompositeType(type)) {
        total += 1;
        continue;
      }
      total += 2 + rowsOf(selection, type, context) * selectionCost(selection.selectionSet, type, context, seen);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      const on = selection.typeCondition ? (context.getSchema().getType(selection.typeCondition.name.value) ?? parent) : parent;
      total += selectionCost(selection.selectionSet, on, context, seen);
    } else {
      const name = selection.name.value;
      const fragment: FragmentDefinitionNode | null | undefined = context.getFragment(name);
      if (!fragment || seen.has(name)) continue;
      const on = context.getSchema().getType(fragment.typeCondition.name.value) ?? parent;
      total += selectionCost(fragment.selectionSet, on, context, new Set([...seen, name]));
    }
  }
  return total;
}

/** A validation rule refusing operations that cost more than `maxCost`. */
export function costLimitRule(maxCost: number) {
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(operation) {
      const root = context.getSchema().getRootType(operation.operation);
      if (!root) return;
      const cost = selectionCost(operation.selectionSet, root, context, new Set());
      if (cost > maxCost)
        context.reportError(new GraphQLError(`Query Cost limit of ${maxCost} exceeded, found ${cost}.`, { nodes: [operation] }));
    },
  });
}
