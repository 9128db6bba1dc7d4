// The catalogue's operations by name, for code the catalogue itself loads: the assistant's tools stand for
// catalogue operations, and the chat's handler (in the catalogue) checks them by name. catalogue.ts fills
// the index as it loads; lookups happen at call time, so importing this closes no loop.
import type { AnyOperation } from "./operation.ts";

const byName = new Map<string, AnyOperation>();

/** Called once by catalogue.ts with every operation, once each has its name. */
export function indexOperations(operations: readonly AnyOperation[]): ReadonlyMap<string, AnyOperation> {
  for (const operation of operations) byName.set(operation.name, operation);
  return byName;
}

/** The operation of that name; a name the catalogue lacks is a programming error, not a refusal. */
export function operationNamed(name: string): AnyOperation {
  const operation = byName.get(name);
  if (!operation) throw new Error(`No operation named ${name} in the catalogue`);
  return operation;
}
