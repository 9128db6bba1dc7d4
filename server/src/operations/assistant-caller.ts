// The caller the assistant acts for, made from the request that asked: the signed-in account, the
// credential it used, and `mayCall`, which admits each tool call through invoke.ts's `admit` for the
// catalogue operation the tool stands for, with this request's credential. So an analytics key that
// may not POST /api/workflow may not launch through the assistant either, on whichever transport.
import type { AssistantCredential, AssistantUser } from "../modules/assistant/assistant-user.ts";
import type { RequestContext } from "../request-context.ts";
import { admit } from "./invoke.ts";
import type { OperationCall } from "./operation.ts";
import { operationNamed } from "./operation-index.ts";
import { signedIn } from "./signed-in.ts";

function credentialOf(ctx: RequestContext): AssistantCredential {
  if (ctx.auth?.method === "api_key") return { kind: "api_key", scope: ctx.auth.apiKey?.scope ?? "full" };
  return { kind: "session" };
}

export function assistantCaller(ctx: RequestContext, call: Pick<OperationCall, "headers">): AssistantUser {
  return {
    ...signedIn(ctx),
    credential: credentialOf(ctx),
    mayCall: (operation) => admit(operationNamed(operation), ctx, call.headers),
  };
}
