// The cost limit: a query's cost is what it may read. A field costs 1, an object 2 plus its selection's
// cost, and a connection's selection counts once per row it may answer (`first` or `last`, literal or
// from a variable's value; 20 when neither is given), so asking for more rows costs more. A page of more
// than MAX_PAGE rows is refused outright.
import {
  type ASTVisitor,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
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
  BREAK,
  visit,
} from "graphql";
import { MAX_PAGE } from "./builder.ts";

const DEFAULT_PAGE = 20;

/** The request's variables; none while validating (a validated document is cached whatever its variables). */
type Variables = Readonly<Record<string, unknown>> | null;

/** What the reckoning reads: a ValidationContext, or the same read from an operation about to run. */
type CostContext = Pick<ValidationContext, "getSchema" | "getFragment" | "getDocument" | "reportError">;

/**
 * A page size given by a variable: its value, its default when not given, else the default page. While
 * validating (no values yet) it counts one row: the operation is reckoned again with its values before it runs.
 */
function variablePage(name: string, variables: Variables, context: CostContext): number {
  if (!variables) return 1;
  const given = variables[name];
  if (typeof given === "number") return given;
  if (given !== undefined && given !== null) return MAX_PAGE; // not a number: execution refuses it anyway
  for (const definition of context.getDocument().definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    const declared = definition.variableDefinitions?.find((v) => v.variable.name.value === name);
    if (declared?.defaultValue?.kind === Kind.INT) return Number(declared.defaultValue.value);
  }
  return DEFAULT_PAGE;
}

/** How many rows a field may answer: its `first`/`last`, or 1 for anything but a connection. */
function rowsOf(field: FieldNode, type: GraphQLNamedType, context: CostContext, variables: Variables): number {
  const pageArgs = (field.arguments ?? []).filter((arg) => arg.name.value === "first" || arg.name.value === "last");
  let rows = pageArgs.length === 0 && type.name.endsWith("Connection") ? DEFAULT_PAGE : 1;
  for (const arg of pageArgs) {
    const value = arg.value;
    const asked =
      value.kind === Kind.INT
        ? Number(value.value)
        : value.kind === Kind.VARIABLE
          ? variablePage(value.name.value, variables, context)
          : DEFAULT_PAGE;
    if (asked > MAX_PAGE) {
      context.reportError(
        new GraphQLError(`\`${arg.name.value}\` may ask for at most ${MAX_PAGE} rows a page, not ${asked}.`, { nodes: [arg] }),
      );
    }
    rows = Math.max(rows, Math.min(asked, MAX_PAGE));
  }
  return rows;
}

function selectionCost(
  set: SelectionSetNode | undefined,
  parent: GraphQLNamedType,
  context: CostContext,
  seen: Set<string>,
  variables: Variables,
): number {
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
      total += 2 + rowsOf(selection, type, context, variables) * selectionCost(selection.selectionSet, type, context, seen, variables);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      const on = selection.typeCondition ? (context.getSchema().getType(selection.typeCondition.name.value) ?? parent) : parent;
      total += selectionCost(selection.selectionSet, on, context, seen, variables);
    } else {
      const name = selection.name.value;
      const fragment: FragmentDefinitionNode | null | undefined = context.getFragment(name);
      if (!fragment || seen.has(name)) continue;
      const on = context.getSchema().getType(fragment.typeCondition.name.value) ?? parent;
      total += selectionCost(fragment.selectionSet, on, context, new Set([...seen, name]), variables);
    }
  }
  return total;
}

function checkOperation(operation: OperationDefinitionNode, context: CostContext, maxCost: number, variables: Variables): void {
  const root = context.getSchema().getRootType(operation.operation);
  if (!root) return;
  const cost = selectionCost(operation.selectionSet, root, context, new Set(), variables);
  if (cost > maxCost)
    context.reportError(new GraphQLError(`Query Cost limit of ${maxCost} exceeded, found ${cost}.`, { nodes: [operation] }));
}

/** A validation rule refusing operations whose literal pages cost more than `maxCost` (variables count one row). */
export function costLimitRule(maxCost: number) {
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(operation) {
      checkOperation(operation, context, maxCost, null);
    },
  });
}

const pagedByVariable = new WeakMap<DocumentNode, boolean>();

/**
 * Whether a document asks for a page size through a variable (`first: $n`): only then can its cost with the
 * variables' values differ from the one checked while validating. Documents are parsed once and cached, so
 * this is answered once per document, not per request.
 */
export function pagesByVariable(document: DocumentNode): boolean {
  let known = pagedByVariable.get(document);
  if (known === undefined) {
    known = false;
    visit(document, {
      Argument(arg) {
        if ((arg.name.value === "first" || arg.name.value === "last") && arg.value.kind === Kind.VARIABLE) {
          known = true;
          return BREAK;
        }
        return undefined;
      },
    });
    pagedByVariable.set(document, known);
  }
  return known;
}

/**
 * The errors of an operation about to run whose cost, with its variables' values, is more than `maxCost`
 * (and of a page over MAX_PAGE rows asked through a variable): 400s, as validation errors are.
 */
export function costErrors(
  args: { schema: GraphQLSchema; document: DocumentNode; operationName?: string | null; variableValues?: Record<string, unknown> | null },
  maxCost: number,
): GraphQLError[] {
  const errors: GraphQLError[] = [];
  const operations = args.document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const operation = args.operationName ? operations.find((o) => o.name?.value === args.operationName) : operations[0];
  if (!operation) return errors;
  const context: CostContext = {
    getSchema: () => args.schema,
    getDocument: () => args.document,
    getFragment: (name) =>
      args.document.definitions.find((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === name),
    reportError: (error) =>
      errors.push(
        new GraphQLError(error.message, { nodes: error.nodes, extensions: { code: "BAD_REQUEST", status: 400, http: { status: 400 } } }),
      ),
  };
  checkOperation(operation, context, maxCost, args.variableValues ?? {});
  return errors;
}
