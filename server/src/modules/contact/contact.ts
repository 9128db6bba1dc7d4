import { ContactInput, NewsletterInput } from "@adgen/schema";
import type { z } from "zod";
import type { RequestContext } from "../../request-context.ts";
import { isUniqueViolation, parseInput } from "../../errors.ts";

export async function submitContact(ctx: RequestContext, input: z.input<typeof ContactInput>) {
  const { email, name, message } = parseInput(ContactInput, input);
  const row = await ctx.services.prisma.contactMessage.create({
    data: { email: email.toLowerCase(), name: name ?? null, message, ip: ctx.ip, userId: ctx.auth?.user.id ?? null },
    select: { id: true },
  });
  return { id: row.id, received: true as const };
}

/** Idempotent per e-mail: subscribing twice is a success that says so. */
export async function subscribeNewsletter(ctx: RequestContext, input: z.input<typeof NewsletterInput>) {
  const email = parseInput(NewsletterInput, input).email.toLowerCase();
  const { prisma } = ctx.services;
  const existing = await prisma.newsletterSubscription.findUnique({ where: { email } });
  if (existing) return { email, subscribed: true as const, alreadySubscribed: true };
  try {
    await prisma.newsletterSubscription.create({ data: { email } });
    return { email, subscribed: true as const, alreadySubscribed: false };
  } catch (error) {
    if (isUniqueViolation(error)) return { email, subscribed: true as const, alreadySubscribed: true };
    throw error;
  }
}
