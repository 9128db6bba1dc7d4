// The projects made for each of many brands, one page per brand, in one statement: a project belongs to the
// brand its launch named (jobs.input->>'brand'), and a default brand also has those that named none. Jobs and
// brands are no relation of the database, so the page of every brand is cut by a window over the brands.
import type { Sql } from "../../db/database.ts";

export interface BrandKey {
  id: string;
  userId: string;
  isDefault: boolean;
}

/**
 * A page as Prisma's cursor paging asks for it: `take` rows (negative: the rows before), after skipping
 * `skip` from the cursor's row (or from the start, or the end, without a cursor).
 */
export interface BrandPage {
  take: number;
  skip: number;
  cursor: string | null;
  from: Date | null;
  to: Date | null;
  newestFirst: boolean;
}

export interface BrandProjectIds {
  /** The page's project ids, in the list's order. */
  ids: string[];
  /** How many projects the brand's whole list holds (with its date range). */
  total: number;
}

/** Each brand's page of project ids and its total, in the order of `brands`. */
export async function brandProjectPages(sql: Sql, brands: readonly BrandKey[], page: BrandPage): Promise<BrandProjectIds[]> {
  const order = page.newestFirst ? "DESC" : "ASC";
  const rows = await sql.query<{ brand: string; id: string | null; n: number; total: number }>(
    `WITH b AS (SELECT * FROM unnest($1::text[], $2::text[], $3::bool[]) AS b(id, user_id, is_default)),
     ranked AS (
       SELECT b.id AS brand, j.id,
              row_number() OVER (PARTITION BY b.id ORDER BY j.created_at ${order}, j.id ${order})::int AS n,
              count(*) OVER (PARTITION BY b.id)::int AS total
         FROM b JOIN jobs j ON j.user_id = b.user_id
          AND (j.input->>'brand' = b.id
               OR (b.is_default AND (j.input->'brand' IS NULL OR j.input->'brand' = 'null'::jsonb)))
        WHERE ($4::timestamptz IS NULL OR j.created_at >= $4) AND ($5::timestamptz IS NULL OR j.created_at < $5)
     ),
     bounds AS (
       SELECT r.brand, max(r.total) AS total,
              max(CASE WHEN r.id = $6::text THEN r.n END) AS at
         FROM ranked r GROUP BY r.brand
     ),
     paged AS (
       SELECT r.brand, r.id, r.n, r.total FROM ranked r JOIN bounds p ON p.brand = r.brand
        WHERE ($6::text IS NULL OR p.at IS NOT NULL)
          AND CASE WHEN $7::int >= 0
                   THEN r.n >= COALESCE(p.at, 1) + $8::int AND r.n < COALESCE(p.at, 1) + $8::int + $7::int
                   ELSE r.n <= COALESCE(p.at, p.total) - $8::int AND r.n > COALESCE(p.at, p.total) - $8::int + $7::int
              END
     )
     SELECT brand, id, n, total FROM paged
     UNION ALL
     SELECT brand, NULL, 0, total FROM bounds
     ORDER BY 1, 3`,
    [
      brands.map((b) => b.id),
      brands.map((b) => b.userId),
      brands.map((b) => b.isDefault),
      page.from?.toISOString() ?? null,
      page.to?.toISOString() ?? null,
      page.cursor,
      page.take,
      page.skip,
    ],
  );
  const byBrand = new Map<string, BrandProjectIds>();
  for (const row of rows) {
    const entry = byBrand.get(row.brand) ?? { ids: [], total: Number(row.total) };
    if (row.id !== null) entry.ids.push(row.id);
    byBrand.set(row.brand, entry);
  }
  return brands.map((b) => byBrand.get(b.id) ?? { ids: [], total: 0 });
}
