ALTER TABLE "diagnosis_templates" ADD COLUMN "category" text DEFAULT 'western' NOT NULL;--> statement-breakpoint
UPDATE "diagnosis_templates" SET "category" = 'chinese' WHERE EXISTS (SELECT 1 FROM jsonb_array_elements("diagnosis_templates"."lines") AS l JOIN "drugs" ON "drugs"."id" = (l->>'drugId')::int WHERE "drugs"."category" = 'chinese');
