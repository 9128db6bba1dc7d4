// GraphQL names of the catalogue's operations, types, fields and enum values.

/** `credits_balance` → `creditsBalance`; GraphQL names are [_A-Za-z][_0-9A-Za-z]*. */
export function fieldName(key: string): string {
  const camel = key.replace(/[_-]+([A-Za-z0-9])/g, (_m, c: string) => c.toUpperCase()).replace(/[^_0-9A-Za-z]/g, "_");
  return /^[0-9]/.test(camel) ? `_${camel}` : camel;
}

/** `workflow.launch` → `workflowLaunch`. */
export const graphqlFieldName = (operationName: string) => fieldName(operationName.replace(/\./g, "_"));

/** `workflow.launch` → `WorkflowLaunch`: the name of its output and argument types. */
export const operationTypeName = (operationName: string) => graphqlFieldName(operationName).replace(/^./, (c) => c.toUpperCase());

export const pascal = (text: string) =>
  text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join("");

export const enumValueName = (value: string) => {
  const name = value.replace(/[^_0-9A-Za-z]/g, "_");
  return /^[0-9]/.test(name) ? `_${name}` : name;
};
