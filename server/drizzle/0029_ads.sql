CREATE TABLE "ads" (
	"id" serial PRIMARY KEY NOT NULL,
	"hospital_id" integer,
	"title" text NOT NULL,
	"image" text DEFAULT '' NOT NULL,
	"url" text DEFAULT '' NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ads" ADD CONSTRAINT "ads_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ads_hospital_idx" ON "ads" USING btree ("hospital_id","sort");--> statement-breakpoint
-- the banners hospitals kept inside their home-page config become ads, in their order; the config keeps no banners
INSERT INTO "ads" ("hospital_id", "title", "image", "url", "sort")
SELECT h."id", b.value->>'title', coalesce(b.value->>'image', ''), coalesce(b.value->>'url', ''), b.ordinality
FROM "hospitals" h, jsonb_array_elements(coalesce(h."home_page_config"->'banners', '[]'::jsonb)) WITH ORDINALITY AS b(value, ordinality);--> statement-breakpoint
UPDATE "hospitals" SET "home_page_config" = "home_page_config" - 'banners';
