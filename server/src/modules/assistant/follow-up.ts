// The built-in assistant's reading of a message in its thread (see context.ts for what it resolves):
// the tool to run with its arguments, and the words that say how the message was understood.
import type { ToolCallView } from "@adgen/schema";
import type { Services } from "../../request-context.ts";
import type { AssistantUser } from "./assistant-user.ts";
import { listBrands } from "../brand/brand-profile.ts";
import { recogniseIntent } from "./intent.ts";
import { plainRequest } from "./plain-requests.ts";
import { accountExamples, cannotDoThat, whatICanDo } from "./capabilities.ts";
import { confirmsLaunch } from "./pending-launch.ts";
import {
  brandNamedIn,
  type HistoryMessage,
  lastBrandId,
  ordinalIn,
  periodIn,
  planRevision,
  previousToolCall,
  refersToThatBrand,
} from "./context.ts";

export type ToolName = "read_performance" | "plan_campaign" | "estimate_launch" | "launch_workflow" | "search_knowledge" | "project_status";

export type Reading =
  | { tool: ToolName; args: Record<string, unknown>; preface?: string; focus?: { creativeId: string; position: string } }
  | { tool: null; reply: string };

const POSITION = ["first", "second", "third", "fourth", "fifth"];
const positionWord = (index: number, count: number) => (index === count - 1 && index > 4 ? "last" : (POSITION[index] ?? `#${index + 1}`));

/** Picks the item an ordinal names from the previous answer's list, or says there is none. */
function pick<T>(list: readonly T[], message: string, what: string): { item: T; position: string } | { reply: string } | null {
  const ordinal = ordinalIn(message);
  if (ordinal === null) return null;
  const index = ordinal === "last" ? list.length - 1 : ordinal - 1;
  const item = list[index];
  if (!item)
    return {
      reply: `My last answer listed ${list.length} ${what}${list.length === 1 ? "" : "s"}, so there is no ${ordinal === "last" ? "last one" : `#${ordinal}`} to pick.`,
    };
  return { item, position: ordinal === "last" ? "last" : positionWord(index, list.length) };
}

function fromList(previous: ToolCallView | null, message: string): Reading | null {
  const result = previous?.result as any;
  if (previous?.name === "project_status" && Array.isArray(result?.projects)) {
    const picked = pick(result.projects as { id: string; name: string }[], message, "project");
    if (!picked) return null;
    if ("reply" in picked) return { tool: null, reply: picked.reply };
    return {
      tool: "project_status",
      args: { projectId: picked.item.id },
      preface: `The ${picked.position} project, ${picked.item.name}: `,
    };
  }
  if (previous?.name === "read_performance" && Array.isArray(result?.ads?.creatives)) {
    const picked = pick(result.ads.creatives as { creativeId: string }[], message, "ad");
    if (!picked) return null;
    if ("reply" in picked) return { tool: null, reply: picked.reply };
    return { tool: "read_performance", args: previous.arguments, focus: { creativeId: picked.item.creativeId, position: picked.position } };
  }
  return null;
}

async function brandOf(services: Services, user: AssistantUser, message: string, history: readonly HistoryMessage[]) {
  const brands = (await listBrands(services, user)).map((b) => ({ id: b.id, name: b.brandName ?? "" }));
  const named = brandNamedIn(message, brands);
  if (named) return named;
  if (!refersToThatBrand(message)) return null;
  const id = lastBrandId(history);
  if (!id) {
    const names = brands.map((b) => b.name).filter(Boolean);
    return {
      reply: `Which brand do you mean? This conversation has not used one yet.${names.length ? ` Your brands: ${names.join(", ")}.` : ""}`,
    };
  }
  return brands.find((b) => b.id === id) ?? { id, name: "that brand" };
}

/** The message read in its thread: a revision, a pick from a list, a brand, a period, or a new question. */
export async function readInContext(
  services: Services,
  user: AssistantUser,
  message: string,
  history: readonly HistoryMessage[],
): Promise<Reading> {
  const plain = await plainRequest(services, user, message, history);
  if (plain) return plain;
  const previous = previousToolCall(history);
  if (previous?.name === "plan_campaign") {
    const revision = planRevision(message, previous);
    if (revision) return { tool: "plan_campaign", args: revision.args, preface: `Revised: ${revision.changes.join(" and ")}. ` };
  }
  const brand = await brandOf(services, user, message, history);
  if (brand && "reply" in brand) return { tool: null, reply: brand.reply };
  const forBrand = brand ? `For ${brand.name}: ` : undefined;
  if (previous?.name === "estimate_launch" && (confirmsLaunch(message) || /\b(launch|run|do|start) (it|that|this)\b/i.test(message))) {
    return { tool: "launch_workflow", args: { ...previous.arguments, ...(brand ? { brand: brand.id } : {}) } };
  }
  const picked = fromList(previous, message);
  if (picked) return picked;

  const intent = recogniseIntent(message);
  if (intent.tool === "read_performance") {
    const args = { ...intent.args, ...(brand ? { brandId: brand.id } : {}) };
    return { tool: intent.tool, args, ...(forBrand ? { preface: forBrand } : {}) };
  }
  if (intent.tool === "estimate_launch" || intent.tool === "launch_workflow") {
    return {
      tool: intent.tool,
      args: { ...intent.args, ...(brand ? { brand: brand.id } : {}) },
      ...(forBrand ? { preface: forBrand } : {}),
    };
  }
  if (intent.tool !== null) return { tool: intent.tool, args: intent.args };

  // No question of its own: a follow-up of the previous performance answer with another period or brand.
  const period = periodIn(message);
  if (previous?.name === "read_performance" && (period || brand)) {
    const args = { ...previous.arguments, ...(period ? { days: period.days } : {}), ...(brand ? { brandId: brand.id } : {}) };
    return { tool: "read_performance", args, preface: period ? `For ${period.words}${brand ? ` and ${brand.name}` : ""}: ` : forBrand! };
  }
  if ("help" in intent) {
    const examples = await accountExamples(services, user);
    return { tool: null, reply: intent.help === "asked" ? whatICanDo(examples) : cannotDoThat(examples) };
  }
  return intent;
}
