// Prompts for the common flows: what an agent should do, step by step, with the tools this server lists.
// Each names tools by their derived names, so a renamed operation fails the MCP test that checks them.
import type { GetPromptResult, Prompt } from "@modelcontextprotocol/sdk/types.js";
import { AppError } from "../errors.ts";

interface PromptDefinition extends Prompt {
  /** The tools the prompt tells the agent to call (checked against the tool list by the tests). */
  tools: string[];
  text(args: Record<string, string | undefined>): string;
}

const brandLine = (brand: string | undefined) =>
  brand ? `The brand is "${brand}" (find its id with brand_list).` : "Start with brand_list and ask which brand, unless there is one.";

export const PROMPTS: PromptDefinition[] = [
  {
    name: "make-ads-for-my-brand",
    title: "Make ads for my brand",
    description: "Preview ads for a brand for free, let the user change lines, then launch with their consent to the price",
    arguments: [
      { name: "brand", description: "The brand's name or id (optional)", required: false },
      { name: "goal", description: "What the ads are for: a product, an offer, a launch (optional)", required: false },
    ],
    tools: ["brand_list", "workflow_preview", "workflow_launch", "workflow_stream"],
    text: ({ brand, goal }) =>
      [
        "Make video ads for my brand.",
        brandLine(brand),
        goal ? `The ads are for: ${goal}.` : "Ask what the ads are for if the brand profile does not say.",
        "1. Call workflow_preview with a launch body (type, brand, concept; formats if the user named platforms). It is free: show me each scene's still, the lines, the creative score and the price.",
        "2. If I want a line or a picture changed, call workflow_preview again with the previewId and the scene edits, and show the new stills.",
        "3. Only when I say yes to the price, call workflow_launch with the same body, the previewId and confirmCost equal to the price.",
        "4. Follow the job with workflow_stream (or subscribe to its adgen://jobs/{jobId} resource) and give me the rendered files.",
      ].join("\n"),
  },
  {
    name: "what-is-tiring-in-my-account",
    title: "What is tiring in my account",
    description: "Find the creatives whose figures are decaying (creative fatigue) and say why",
    arguments: [{ name: "brand", description: "Limit to one brand (optional)", required: false }],
    tools: ["performance_report", "loop_recommend"],
    text: ({ brand }) =>
      [
        "What is tiring in my account?",
        brand ? `Look at the brand "${brand}" only.` : "Look at every brand (brand_list).",
        "1. Call performance_report and find the creatives marked decaying: their click-through rate falling over the recent days.",
        "2. For each, say what fell (CTR, CPA, ROAS), since when, and how much it still spends.",
        "3. Call loop_recommend for the brand and tell me what it would do next. Do not launch anything.",
      ].join("\n"),
  },
  {
    name: "refresh-the-ads-that-are-decaying",
    title: "Refresh the ads that are decaying",
    description: "Replace decaying creatives with fresh variants, each launch confirmed at its price",
    arguments: [{ name: "brand", description: "The brand's name or id (optional)", required: false }],
    tools: ["performance_report", "loop_recommend", "loop_execute"],
    text: ({ brand }) =>
      [
        "Refresh the ads that are decaying.",
        brandLine(brand),
        "1. Call performance_report and list the decaying creatives.",
        "2. Call loop_recommend: if it says ITERATE or CHALLENGER, tell me the action, the creative and its cost in credits.",
        "3. Only after I agree to that cost, call loop_execute with the action, the creative and confirmCost equal to the cost.",
        "4. Follow each launched job with workflow_stream and show me the new ad.",
      ].join("\n"),
  },
];

export const promptList = (): Prompt[] => PROMPTS.map(({ tools: _tools, text: _text, ...prompt }) => prompt);

export function getPrompt(name: string, args: Record<string, string | undefined>): GetPromptResult {
  const prompt = PROMPTS.find((p) => p.name === name);
  if (!prompt) throw new AppError("NOT_FOUND", `No prompt named ${name}: the prompts are ${PROMPTS.map((p) => p.name).join(", ")}`);
  return { description: prompt.description, messages: [{ role: "user", content: { type: "text", text: prompt.text(args) } }] };
}
