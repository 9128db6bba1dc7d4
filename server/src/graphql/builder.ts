// The Pothos schema builder. One file per entity under schema/, each a few lines around domain functions.
import SchemaBuilder from "@pothos/core";
import { ACCOUNT_STATUSES, PLAN_IDS, PROVIDER_PREFERENCES, QUALITY_TIERS, ROLES, WORKFLOW_TYPES } from "@adgen/schema";
import type { RequestContext } from "../context.ts";

export const builder = new SchemaBuilder<{
  Context: RequestContext;
  Scalars: {
    DateTime: { Input: string; Output: string };
    JSON: { Input: unknown; Output: unknown };
  };
}>({});

builder.scalarType("DateTime", {
  description: "ISO 8601 date-time",
  serialize: (value) => String(value),
  parseValue: (value) => String(value),
});
builder.scalarType("JSON", {
  description: "Any JSON value",
  serialize: (value) => value,
  parseValue: (value) => value,
});

// GraphQL enum names cannot contain "-" or ":"; values map back to the REST spellings.
const enumValues = (values: readonly string[]) => Object.fromEntries(values.map((v) => [v.replace(/[^A-Za-z0-9_]/g, "_"), { value: v }]));

export const RoleEnum = builder.enumType("Role", { values: ROLES });
export const AccountStatusEnum = builder.enumType("AccountStatus", { values: ACCOUNT_STATUSES });
export const PlanIdEnum = builder.enumType("PlanId", { values: PLAN_IDS });
export const ProviderPreferenceEnum = builder.enumType("ProviderPreference", { values: PROVIDER_PREFERENCES });
export const QualityTierEnum = builder.enumType("QualityTier", { values: QUALITY_TIERS });
export const WorkflowTypeEnum = builder.enumType("WorkflowType", { values: enumValues(WORKFLOW_TYPES) as never });

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});
