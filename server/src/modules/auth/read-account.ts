// The account row every authenticated request needs, read with one prepared statement instead of through
// Prisma: on this path Prisma's query compiler costs several times the query itself (measured on the profile read).
// The columns are listed here; a test reads an account both ways and compares them, so a column added to
// the model and not here fails it.
import type { User } from "@adgen/prisma";
import type { Sql } from "../../db/database.ts";

interface UserRow {
  id: string;
  email: string;
  password_hash: string;
  role: User["role"];
  status: User["status"];
  current_plan_id: User["currentPlanId"];
  provider_preference: User["providerPreference"];
  trial_ends_at: Date | string | null;
  last_login: Date | string | null;
  credits_balance: number;
  created_at: Date | string;
  updated_at: Date | string;
}

const READ_USER = `SELECT id, email, password_hash, role::text AS role, status::text AS status,
  current_plan_id::text AS current_plan_id, provider_preference::text AS provider_preference,
  trial_ends_at, last_login, credits_balance, created_at, updated_at
  FROM users WHERE id = $1`;

const date = (value: Date | string) => (value instanceof Date ? value : new Date(value));
const maybeDate = (value: Date | string | null) => (value === null ? null : date(value));

export async function readUser(sql: Sql, id: string): Promise<User | null> {
  const [row] = await sql.prepared<UserRow>("auth_read_user", READ_USER, [id]);
  if (!row) return null;
  return {
    id: row.id,
    email: row.email,
    passwordHash: row.password_hash,
    role: row.role,
    status: row.status,
    currentPlanId: row.current_plan_id,
    providerPreference: row.provider_preference,
    trialEndsAt: maybeDate(row.trial_ends_at),
    lastLogin: maybeDate(row.last_login),
    creditsBalance: Number(row.credits_balance),
    createdAt: date(row.created_at),
    updatedAt: date(row.updated_at),
  };
}
