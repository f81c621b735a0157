CREATE TABLE "doctor_fans" (
	"user_id" integer NOT NULL,
	"doctor_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "doctor_fans_user_id_doctor_id_pk" PRIMARY KEY("user_id","doctor_id")
);
--> statement-breakpoint
CREATE TABLE "online_doctor_services" (
	"doctor_id" integer NOT NULL,
	"type" text NOT NULL,
	"price_fen" integer NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	CONSTRAINT "online_doctor_services_doctor_id_type_pk" PRIMARY KEY("doctor_id","type")
);
--> statement-breakpoint
CREATE TABLE "online_doctors" (
	"doctor_id" integer PRIMARY KEY NOT NULL,
	"hospital_id" integer NOT NULL,
	"level" real NOT NULL,
	"avg_reply_seconds" integer DEFAULT 0 NOT NULL,
	"served_count" integer DEFAULT 0 NOT NULL,
	"good_rate" integer DEFAULT 100 NOT NULL,
	"online" boolean DEFAULT true NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "physician_assistants" (
	"id" serial PRIMARY KEY NOT NULL,
	"hospital_id" integer NOT NULL,
	"name" text NOT NULL,
	"avatar" text DEFAULT '' NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "hospitals" ADD COLUMN "city" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "doctor_fans" ADD CONSTRAINT "doctor_fans_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "doctor_fans" ADD CONSTRAINT "doctor_fans_doctor_id_online_doctors_doctor_id_fk" FOREIGN KEY ("doctor_id") REFERENCES "public"."online_doctors"("doctor_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "online_doctor_services" ADD CONSTRAINT "online_doctor_services_doctor_id_online_doctors_doctor_id_fk" FOREIGN KEY ("doctor_id") REFERENCES "public"."online_doctors"("doctor_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "online_doctors" ADD CONSTRAINT "online_doctors_doctor_id_doctors_id_fk" FOREIGN KEY ("doctor_id") REFERENCES "public"."doctors"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "online_doctors" ADD CONSTRAINT "online_doctors_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "physician_assistants" ADD CONSTRAINT "physician_assistants_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "doctor_fans_doctor_idx" ON "doctor_fans" USING btree ("doctor_id");--> statement-breakpoint
CREATE INDEX "online_doctors_hospital_idx" ON "online_doctors" USING btree ("hospital_id");--> statement-breakpoint
CREATE INDEX "physician_assistants_hospital_idx" ON "physician_assistants" USING btree ("hospital_id");