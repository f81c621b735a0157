CREATE TABLE "accompanies" (
	"id" serial PRIMARY KEY NOT NULL,
	"patient_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"name_enc" text NOT NULL,
	"id_card_enc" text NOT NULL,
	"person_index" text NOT NULL,
	"mobile_enc" text NOT NULL,
	"relation" text NOT NULL,
	"unbound_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "addresses" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"name_enc" text NOT NULL,
	"mobile_enc" text NOT NULL,
	"province_code" integer NOT NULL,
	"city_code" integer NOT NULL,
	"district_code" integer NOT NULL,
	"region_text" text NOT NULL,
	"detail_enc" text NOT NULL,
	"latitude" text,
	"longitude" text,
	"is_default" boolean DEFAULT false NOT NULL,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "health_card_codes" (
	"code_hash" text PRIMARY KEY NOT NULL,
	"holder_enc" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "patient_cards" (
	"id" serial PRIMARY KEY NOT NULL,
	"patient_id" integer NOT NULL,
	"hospital_id" integer NOT NULL,
	"card_no_enc" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "patients" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"hospital_id" integer,
	"name_enc" text NOT NULL,
	"id_card_enc" text,
	"person_index" text NOT NULL,
	"mobile_enc" text,
	"sex" integer NOT NULL,
	"birthday" text NOT NULL,
	"relation" text NOT NULL,
	"source" text NOT NULL,
	"guardian_name_enc" text,
	"guardian_id_card_enc" text,
	"health_card_enc" text,
	"is_default" boolean DEFAULT false NOT NULL,
	"unbound_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "regions" (
	"code" integer PRIMARY KEY NOT NULL,
	"parent_code" integer NOT NULL,
	"name" text NOT NULL,
	"level" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "real_name_enc" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "id_card_enc" text;--> statement-breakpoint
ALTER TABLE "accompanies" ADD CONSTRAINT "accompanies_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accompanies" ADD CONSTRAINT "accompanies_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "addresses" ADD CONSTRAINT "addresses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_cards" ADD CONSTRAINT "patient_cards_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_cards" ADD CONSTRAINT "patient_cards_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "accompanies_patient_idx" ON "accompanies" USING btree ("patient_id");--> statement-breakpoint
CREATE UNIQUE INDEX "accompanies_person_key" ON "accompanies" USING btree ("patient_id","person_index") WHERE "accompanies"."unbound_at" is null;--> statement-breakpoint
CREATE INDEX "addresses_user_idx" ON "addresses" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "addresses_default_key" ON "addresses" USING btree ("user_id") WHERE "addresses"."is_default" and "addresses"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "patient_cards_key" ON "patient_cards" USING btree ("patient_id","hospital_id");--> statement-breakpoint
CREATE INDEX "patients_user_idx" ON "patients" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "patients_person_key" ON "patients" USING btree ("user_id","person_index") WHERE "patients"."unbound_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "patients_default_key" ON "patients" USING btree ("user_id") WHERE "patients"."is_default" and "patients"."unbound_at" is null;--> statement-breakpoint
CREATE INDEX "regions_parent_idx" ON "regions" USING btree ("parent_code");