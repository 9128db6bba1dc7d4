-- AlterTable
ALTER TABLE "jobs" ADD COLUMN     "name" TEXT NOT NULL DEFAULT '';

-- Backfill: a project launched before names existed is named after its concept's first words (at most 60
-- characters, cut between words, with no trailing punctuation), else after its workflow type, as the server names new ones.
UPDATE "jobs" SET "name" = CASE
  WHEN length(btrim(regexp_replace(coalesce("input"->>'concept', ''), '\s+', ' ', 'g'))) = 0 THEN
    CASE "type"
      WHEN 'cinematic' THEN 'Cinematic ad' WHEN 'avatar' THEN 'Avatar ad' WHEN 'factory' THEN 'Ad factory batch'
      WHEN 'clone' THEN 'Cloned ad' WHEN 'influencer' THEN 'Influencer ad' WHEN 'brand' THEN 'Brand film'
      WHEN 'staticad' THEN 'Static ads' WHEN 'painpoint' THEN 'Pain point ad' WHEN 'ad-optimizer' THEN 'Optimized ad'
      WHEN 'local-audit' THEN 'Local audit' ELSE "type" END
  WHEN length(btrim(regexp_replace("input"->>'concept', '\s+', ' ', 'g'))) <= 60 THEN
    btrim(regexp_replace("input"->>'concept', '\s+', ' ', 'g'))
  ELSE
    regexp_replace(regexp_replace(left(btrim(regexp_replace("input"->>'concept', '\s+', ' ', 'g')), 61), '\s+\S*$', ''), '[\s,;:.-]+$', '') || '…'
END;
