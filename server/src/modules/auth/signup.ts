import { AuthCredentials, type AuthResponse } from "@adgen/schema";
import type { z } from "zod";
import type { Services } from "../../request-context.ts";
import { AppError, isUniqueViolation, parseInput } from "../../errors.ts";
import { readSettings } from "../settings/settings.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { changeCredits, LedgerReason } from "../credits/ledger.ts";
import { toAuthResponse } from "./to-profile.ts";
import { hashPassword } from "./password.ts";
import type { IssuedSession } from "./sessions.ts";

/** The client a session is made for: the address it signed in from and its user agent (both kept with the session). */
export interface SessionClient {
  ip: string | null;
  userAgent: string | null;
}

export interface SignedIn {
  user: AuthResponse;
  session: IssuedSession;
}

/** Creates an account on the trial plan with the signup credits (through the ledger) and signs it in. */
export async function signup(services: Services, client: SessionClient, input: z.input<typeof AuthCredentials>): Promise<SignedIn> {
  const { email, password } = parseInput(AuthCredentials, input);
  const { prisma } = services;
  // Signup credits, trial days and whether signups are open are admin settings (defaults from the environment).
  const settings = await readSettings(services);
  if (!settings.featureFlags.signups) throw new AppError("FORBIDDEN", "New signups are closed for now. Please try again later.");
  const passwordHash = await hashPassword(password);
  const now = new Date();
  const user = await prisma
    .$transaction(async (tx) => {
      const created = await tx.user.create({
        data: {
          email: email.toLowerCase(),
          passwordHash,
          currentPlanId: "trial",
          trialEndsAt: new Date(now.getTime() + settings.trialDays * 86_400_000),
          lastLogin: now,
        },
      });
      if (settings.signupCredits > 0) {
        await changeCredits(tx, {
          userId: created.id,
          delta: settings.signupCredits,
          reason: LedgerReason.signupGrant,
          reference: created.id,
        });
      }
      await recordAudit(
        tx,
        { actorId: null, ip: client.ip },
        { action: "auth.signup", actorId: created.id, targetType: "user", targetId: created.id },
      );
      return tx.user.findUniqueOrThrow({ where: { id: created.id } });
    })
    .catch((error: unknown) => {
      throw isUniqueViolation(error) ? new AppError("CONFLICT", "Email already registered") : error;
    });
  const session = await services.sessions.create(user.id, client);
  return { user: toAuthResponse(user), session };
}
