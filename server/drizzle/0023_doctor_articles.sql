ALTER TABLE "articles" ADD COLUMN "doctor_id" integer;--> statement-breakpoint
CREATE INDEX "articles_doctor_idx" ON "articles" USING btree ("doctor_id","published_at");