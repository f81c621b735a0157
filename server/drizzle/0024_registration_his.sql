ALTER TABLE "registrations" DROP CONSTRAINT "registrations_schedule_id_schedules_id_fk";
--> statement-breakpoint
ALTER TABLE "registrations" DROP CONSTRAINT "registrations_slot_id_schedule_slots_id_fk";
--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "register_type" text;
--> statement-breakpoint
UPDATE "registrations" r SET "register_type" = s."register_type" FROM "schedules" s WHERE s."id" = r."schedule_id";
--> statement-breakpoint
UPDATE "registrations" SET "register_type" = '普通号' WHERE "register_type" IS NULL;
--> statement-breakpoint
ALTER TABLE "registrations" ALTER COLUMN "register_type" SET NOT NULL;
