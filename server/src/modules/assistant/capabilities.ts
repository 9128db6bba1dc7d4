// What the built-in assistant can do, said with examples from the account's own brands and projects
// (a new account gets neutral ones). Asked "what can you do?", it answers with this list; asked for
// something it cannot do, it says so and offers the same list instead.
import type { Services } from "../../request-context.ts";
import type { AssistantUser } from "./assistant-user.ts";
import { listBrands } from "../brand/brand-profile.ts";

export interface AccountExamples {
  brand: string | null;
  /** A word or two about what the brand sells (its industry, else its product), for a knowledge search. */
  topic: string | null;
  project: string | null;
}

const firstWords = (text: string | null | undefined, n: number) =>
  text
    ?.replace(/[^\p{L}\p{N}\s'-]/gu, " ")
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, n)
    .join(" ") || null;

export async function accountExamples(services: Services, user: AssistantUser): Promise<AccountExamples> {
  const { prisma } = services;
  const [brands, project] = await Promise.all([
    listBrands(services, user),
    prisma.job.findFirst({ where: { userId: user.id }, orderBy: { createdAt: "desc" }, select: { name: true } }),
  ]);
  // The default brand comes first.
  const brand = brands[0];
  return {
    brand: brand?.brandName?.trim() || null,
    topic: firstWords(brand?.industry, 3) ?? firstWords(brand?.productDescription, 3),
    project: project?.name || null,
  };
}

/** Each thing the assistant does, with an example worded from the account's own brand and projects. */
export function capabilityList(examples: AccountExamples): string[] {
  const { brand, topic, project } = examples;
  const about = brand ? `${brand}${topic ? `'s ${topic}` : ""}` : (topic ?? "your best-selling product");
  return [
    `read your performance ("how are my ads doing?"${brand ? `, "how is ${brand} doing?"` : ""})`,
    `plan a campaign ("plan a 4-week campaign${brand ? ` for ${brand}` : ""} with 20 credits")`,
    'estimate a launch ("how much is a cinematic ad?")',
    `launch a workflow once you confirm ("launch a static ad about ${about}")`,
    `search your brand knowledge ("what do we know about ${topic ?? brand ?? "our customers"}?")`,
    `tell you your projects' status ("status of my projects"${project ? `, the latest being “${project}”` : ""})`,
  ];
}

const numbered = (list: string[]) => list.map((c, i) => `${i + 1}. ${c}`).join(" ");

/** Asked what it can do: the list, with the account's own examples. */
export function whatICanDo(examples: AccountExamples): string {
  return `I can: ${numbered(capabilityList(examples))}`;
}

/** Asked for something it cannot do: says so, and what it can do instead. */
export function cannotDoThat(examples: AccountExamples): string {
  return `That is not something I can do. What I can do instead: ${numbered(capabilityList(examples))}`;
}
