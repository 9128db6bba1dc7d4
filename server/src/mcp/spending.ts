// Spending needs the user's consent. A tool whose operation spends credits says its price in its description
// and runs only when the call carries `confirmCost` equal to the price: the same rule as the studio's
// confirmation dialog. The price is what the catalogue's own estimate answers for the same input, asked through
// the one invocation path (so it is the price the launch then charges). `confirmCost` is the only argument MCP
// adds to an operation's input; it is taken off before the operation sees the input.
import { WORKFLOWS } from "@adgen/schema";
import type { RequestContext } from "../request-context.ts";
import { AppError } from "../errors.ts";
import type { JsonSchema } from "../graphql/catalogue/json-schema.ts";
import { invokeOperation } from "../operations/invoke.ts";
import type { OperationCall } from "../operations/operation.ts";
import { operationNamed } from "../operations/operation-index.ts";

export interface SpendingRule {
  /** The price sentence of the tool's description. */
  describe: string;
  confirmSchema: JsonSchema;
  /**
   * Checks the consent against the price of this input and answers the input the operation runs with;
   * throws a 400 naming the price when the consent is missing or different.
   */
  admit(ctx: RequestContext, call: OperationCall, input: Record<string, unknown>, confirmCost: unknown): Promise<Record<string, unknown>>;
}

const priceTable = WORKFLOWS.map((w) => `${w.type} ${w.standard}${w.premium !== w.standard ? `/${w.premium}` : ""}`).join(", ");

function refuse(message: string): never {
  throw new AppError("BAD_REQUEST", message, { fields: [{ field: "confirmCost", message }] });
}

const launch: SpendingRule = {
  describe:
    `SPENDS CREDITS: the price is the workflow type's (credits standard/premium: ${priceTable}). ` +
    "Ask workflow_estimate (or workflow_preview, free) for the exact price of this input, show it to the user, " +
    "and pass it as confirmCost: the launch is refused unless confirmCost equals the price.",
  confirmSchema: {
    type: "integer",
    description: "The price in credits the user agreed to pay (workflow_estimate's `cost` for the same input); must equal the price",
  },
  async admit(ctx, call, input, confirmCost) {
    const { idempotencyKey: _key, ...request } = input;
    // The price of this very input, through the estimate operation (same access, limits and validation).
    const estimate = (await invokeOperation({ operation: operationNamed("workflow.estimate"), ctx, call, readInput: () => request })) as {
      cost: number;
    };
    if (confirmCost === undefined || confirmCost === null) {
      refuse(`This launch costs ${estimate.cost} credits: ask the user, then call again with confirmCost: ${estimate.cost}`);
    }
    if (confirmCost !== estimate.cost) {
      refuse(
        `confirmCost is ${JSON.stringify(confirmCost)} but this launch costs ${estimate.cost} credits: confirm that price with the user and send confirmCost: ${estimate.cost}`,
      );
    }
    return input;
  },
};

const loopExecute: SpendingRule = {
  describe:
    "SPENDS CREDITS when the action launches an ad: its price is the recommendation's `cost` (loop_recommend). " +
    "Pass that price as confirmCost (0 for an action that launches nothing, such as KILL); the domain refuses with 409 when the action now costs anything else.",
  confirmSchema: {
    type: "integer",
    description: "The credits the user agreed to spend: loop_recommend's `cost` for this action (0 when it launches nothing)",
  },
  async admit(_ctx, _call, input, confirmCost) {
    if (typeof confirmCost !== "number" || !Number.isInteger(confirmCost) || confirmCost < 0) {
      refuse("Send confirmCost: the credits the user agreed to spend (loop_recommend's cost for this action; 0 when it launches nothing)");
    }
    return { ...input, confirmedCost: confirmCost };
  },
};

const RULES: Record<string, SpendingRule> = { "workflow.launch": launch, "loop.execute": loopExecute };

/** The operations that spend an account's credits: each needs the user's consent to its price. */
export const SPENDING_OPERATIONS = Object.keys(RULES);

export const spendingRuleOf = (operationName: string): SpendingRule | undefined => RULES[operationName];
