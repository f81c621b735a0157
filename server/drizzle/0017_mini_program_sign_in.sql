ALTER TABLE "identities" ADD COLUMN "union_id" text;--> statement-breakpoint
ALTER TABLE "oauth_codes" ADD COLUMN "union_id" text;--> statement-breakpoint
CREATE INDEX "identities_union_idx" ON "identities" USING btree ("provider","union_id");