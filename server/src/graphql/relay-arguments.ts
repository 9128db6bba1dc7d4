// The Relay arguments a caller types by hand: a connection's `after`/`before` cursors and `first`/`last`,
// and global ids (every argument of type ID: `node(id:)`, `nodes(ids:)`). Checked before anything runs,
// so a malformed one is the caller's mistake answered as such (BAD_USER_INPUT, naming the argument), not
// a fault deep in the Prisma plugin (it threw while building the parent's query, answered as a 500 and
// logged with a stack trace). Found from the schema, so a new connection or ID argument is checked too.
import { decodeBase64, decodeCursorChunk } from "@pothos/core";
import { decodeGlobalID } from "@pothos/plugin-relay";
import {
  type ArgumentNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  getNamedType,
  type GraphQLArgument,
  GraphQLError,
  type GraphQLField,
  GraphQLID,
  type GraphQLNamedType,
  type GraphQLSchema,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  valueFromAST,
} from "graphql";

export const BAD_USER_INPUT = "BAD_USER_INPUT";

type Variables = Readonly<Record<string, unknown>>;

/** A field answering a Relay connection: its type has `edges` and `pageInfo`. */
export function isConnectionField(field: GraphQLField<unknown, unknown>): boolean {
  const type = getNamedType(field.type);
  return isObjectType(type) && "edges" in type.getFields() && "pageInfo" in type.getFields();
}

/** Whether an argument holds global ids (ID, or a list of them). */
export function holdsGlobalIds(arg: GraphQLArgument): boolean {
  return getNamedType(arg.type) === GraphQLID;
}

/**
 * Whether a cursor is one this graph's lists give out: the Prisma plugin's `GPC:` chunk of a text id
 * (every connection here pages by `cursor: "id"`). A number, date or other chunk would reach Prisma as the
 * wrong type for the column, a fault again; a list that pages by another column must widen this.
 */
export function isListCursor(cursor: string): boolean {
  try {
    const decoded = decodeBase64(cursor);
    if (!decoded.startsWith("GPC:")) return false;
    const value = decodeCursorChunk(decoded.slice(4));
    return typeof value === "string" && value.length > 0;
  } catch {
    return false;
  }
}

/** Whether an id is the global id of a type `node(id:)` can read. */
export function isGlobalId(schema: GraphQLSchema, id: string): boolean {
  const node = schema.getType("Node");
  if (!isInterfaceType(node)) return false;
  try {
    const { typename, id: rowId } = decodeGlobalID(id);
    return rowId.length > 0 && schema.getPossibleTypes(node).some((type) => type.name === typename);
  } catch {
    return false;
  }
}

const refused = (message: string, node: ArgumentNode) =>
  new GraphQLError(message, { nodes: [node], extensions: { code: BAD_USER_INPUT, status: 400, http: { status: 400 } } });

/** The argument's value as the operation gives it (a literal, or a variable's value); undefined when absent or unusable. */
function argumentValue(node: ArgumentNode, definition: GraphQLArgument, variables: Variables): unknown {
  if (node.value.kind === Kind.VARIABLE) return variables[node.value.name.value];
  // Literals, and lists of variables (`ids: [$a, $b]`), read through graphql's own coercion.
  return valueFromAST(node.value, definition.type, variables);
}

/** Ids as given: a list's items with their index, or the one value (an ID may be sent as a number). */
function idsOf(value: unknown, definition: GraphQLArgument): { id: string; label: string }[] {
  const name = definition.name;
  const asText = (item: unknown) => (typeof item === "string" || typeof item === "number" ? String(item) : null);
  const listed = isListType(isNonNullType(definition.type) ? definition.type.ofType : definition.type);
  if (listed && Array.isArray(value)) {
    return value.flatMap((item, index) => {
      const id = asText(item);
      return id === null ? [] : [{ id, label: `${name}[${index}]` }];
    });
  }
  const id = asText(value);
  return id === null ? [] : [{ id, label: name }];
}

function fieldErrors(schema: GraphQLSchema, field: FieldNode, definition: GraphQLField<unknown, unknown>, variables: Variables) {
  const errors: GraphQLError[] = [];
  const connection = isConnectionField(definition);
  for (const node of field.arguments ?? []) {
    const arg = definition.args.find((a) => a.name === node.name.value);
    if (!arg) continue; // graphql's validation names unknown arguments
    const value = argumentValue(node, arg, variables);
    if (value === undefined || value === null) continue;
    if (connection && (arg.name === "after" || arg.name === "before") && typeof value === "string" && !isListCursor(value)) {
      errors.push(
        refused(
          `${arg.name}: not a cursor this list gave out; pass an \`edges.cursor\` or \`pageInfo.endCursor\` (or \`startCursor\`) of \`${field.name.value}\` as it came`,
          node,
        ),
      );
    } else if (connection && (arg.name === "first" || arg.name === "last") && typeof value === "number" && value < 0) {
      errors.push(refused(`${arg.name}: must be 0 or more rows, not ${value}`, node));
    } else if (holdsGlobalIds(arg)) {
      for (const { id, label } of idsOf(value, arg)) {
        if (!isGlobalId(schema, id)) {
          errors.push(refused(`${label}: not a global id; pass the \`id\` of a node this graph answered (as it came)`, node));
        }
      }
    }
  }
  return errors;
}

function selectionErrors(
  schema: GraphQLSchema,
  set: SelectionSetNode | undefined,
  parent: GraphQLNamedType,
  fragments: Map<string, FragmentDefinitionNode>,
  seen: Set<string>,
  variables: Variables,
): GraphQLError[] {
  if (!set) return [];
  const errors: GraphQLError[] = [];
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      const definition = isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[selection.name.value] : undefined;
      if (!definition) continue;
      errors.push(...fieldErrors(schema, selection, definition, variables));
      errors.push(...selectionErrors(schema, selection.selectionSet, getNamedType(definition.type), fragments, seen, variables));
    } else {
      const fragment = selection.kind === Kind.FRAGMENT_SPREAD ? fragments.get(selection.name.value) : undefined;
      if (selection.kind === Kind.FRAGMENT_SPREAD && (!fragment || seen.has(selection.name.value))) continue;
      const condition = fragment ? fragment.typeCondition : selection.kind === Kind.INLINE_FRAGMENT ? selection.typeCondition : undefined;
      const on = condition ? (schema.getType(condition.name.value) ?? parent) : parent;
      const body = fragment ? fragment.selectionSet : selection.kind === Kind.INLINE_FRAGMENT ? selection.selectionSet : undefined;
      const now = fragment ? new Set([...seen, fragment.name.value]) : seen;
      errors.push(...selectionErrors(schema, body, on, fragments, now, variables));
    }
  }
  return errors;
}

/** The refusals of an operation about to run (with its variables' values): one per malformed cursor, count or id. */
export function relayArgumentErrors(args: {
  schema: GraphQLSchema;
  document: DocumentNode;
  operationName?: string | null;
  variableValues?: Record<string, unknown> | null;
}): GraphQLError[] {
  const operations = args.document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const operation = args.operationName ? operations.find((o) => o.name?.value === args.operationName) : operations[0];
  const root = operation ? args.schema.getRootType(operation.operation) : undefined;
  if (!operation || !root) return [];
  const fragments = new Map(
    args.document.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((fragment) => [fragment.name.value, fragment]),
  );
  return selectionErrors(args.schema, operation.selectionSet, root, fragments, new Set(), args.variableValues ?? {});
}
