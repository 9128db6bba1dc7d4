import { ContactInput, NewsletterInput } from "@adgen/schema";
import type { z } from "zod";
import type { Services } from "../../request-context.ts";
import type { AuditSource } from "../audit/record-audit.ts";
import { isUniqueViolation, parseInput } from "../../errors.ts";

/** A message from `sender`: the signed-in account (null for a visitor) and the address it came from. */
export async function submitContact(services: Services, sender: AuditSource, input: z.input<typeof ContactInput>) {
  const { email, name, message } = parseInput(ContactInput, input);
  const row = await services.prisma.contactMessage.create({
    data: { email: email.toLowerCase(), name: name ?? null, message, ip: sender.ip, userId: sender.actorId },
    select: { id: true },
  });
  return { id: row.id, received: true as const };
}

/** Idempotent per e-mail: subscribing twice is a success that says so. */
export async function subscribeNewsletter(services: Services, input: z.input<typeof NewsletterInput>) {
  const email = parseInput(NewsletterInput, input).email.toLowerCase();
  const { prisma } = services;
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
