-- CreateTable
CREATE TABLE "performance_creatives" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "job_id" TEXT,
    "brand_id" TEXT,
    "stopped_at" TIMESTAMPTZ(3),
    "stopped_reason" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "performance_creatives_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "performance_metrics" (
    "id" TEXT NOT NULL,
    "creative_id" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "impressions" INTEGER NOT NULL,
    "clicks" INTEGER NOT NULL,
    "conversions" INTEGER NOT NULL,
    "spend_cents" BIGINT NOT NULL,
    "revenue_cents" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "performance_metrics_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "performance_events" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "creative_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "value_cents" BIGINT NOT NULL DEFAULT 0,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "performance_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "performance_creatives_user_id_brand_id_idx" ON "performance_creatives"("user_id", "brand_id");

-- CreateIndex
CREATE UNIQUE INDEX "performance_creatives_user_id_key_key" ON "performance_creatives"("user_id", "key");

-- CreateIndex
CREATE UNIQUE INDEX "performance_metrics_creative_id_day_key" ON "performance_metrics"("creative_id", "day");

-- CreateIndex
CREATE INDEX "performance_events_creative_id_occurred_at_idx" ON "performance_events"("creative_id", "occurred_at");

-- CreateIndex
CREATE UNIQUE INDEX "performance_events_user_id_event_id_key" ON "performance_events"("user_id", "event_id");

-- AddForeignKey
ALTER TABLE "performance_creatives" ADD CONSTRAINT "performance_creatives_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "performance_metrics" ADD CONSTRAINT "performance_metrics_creative_id_fkey" FOREIGN KEY ("creative_id") REFERENCES "performance_creatives"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "performance_events" ADD CONSTRAINT "performance_events_creative_id_fkey" FOREIGN KEY ("creative_id") REFERENCES "performance_creatives"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Counts and money are never negative (the API refuses them with a 400; this backs it).
ALTER TABLE "performance_metrics" ADD CONSTRAINT "performance_metrics_non_negative"
  CHECK ("impressions" >= 0 AND "clicks" >= 0 AND "conversions" >= 0 AND "spend_cents" >= 0 AND "revenue_cents" >= 0);
ALTER TABLE "performance_events" ADD CONSTRAINT "performance_events_value_non_negative" CHECK ("value_cents" >= 0);
