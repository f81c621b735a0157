CREATE TABLE "his_account_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"kind" text NOT NULL,
	"amount_fen" integer NOT NULL,
	"order_no" text NOT NULL,
	"memo" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "his_account_entries_order_key" UNIQUE("account_id","order_no","kind"),
	CONSTRAINT "his_account_entries_nonzero" CHECK ("his_account_entries"."amount_fen" <> 0)
);
--> statement-breakpoint
CREATE TABLE "his_accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"hospital_code" text NOT NULL,
	"account_no" text NOT NULL,
	"patient_key" text NOT NULL,
	"patient_name_enc" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "his_accounts_patient_key" UNIQUE("hospital_code","patient_key"),
	CONSTRAINT "his_accounts_no_key" UNIQUE("hospital_code","account_no")
);
--> statement-breakpoint
CREATE TABLE "his_admissions" (
	"id" serial PRIMARY KEY NOT NULL,
	"hospital_code" text NOT NULL,
	"admission_no" text NOT NULL,
	"patient_key" text NOT NULL,
	"patient_name_enc" text NOT NULL,
	"dept_name" text NOT NULL,
	"ward" text NOT NULL,
	"bed" text NOT NULL,
	"doctor_name" text NOT NULL,
	"admitted_at" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"discharged_at" timestamp with time zone,
	CONSTRAINT "his_admissions_no_key" UNIQUE("hospital_code","admission_no")
);
--> statement-breakpoint
CREATE TABLE "his_daily_charges" (
	"id" serial PRIMARY KEY NOT NULL,
	"admission_id" integer NOT NULL,
	"charge_date" text NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"spec" text NOT NULL,
	"unit" text NOT NULL,
	"category" text NOT NULL,
	"quantity" integer NOT NULL,
	"unit_price_fen" integer NOT NULL,
	"amount_fen" integer NOT NULL,
	"posted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "his_deposit_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"admission_id" integer NOT NULL,
	"kind" text NOT NULL,
	"amount_fen" integer NOT NULL,
	"order_no" text NOT NULL,
	"channel" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "his_deposit_entries_order_key" UNIQUE("admission_id","order_no","kind"),
	CONSTRAINT "his_deposit_entries_nonzero" CHECK ("his_deposit_entries"."amount_fen" <> 0)
);
--> statement-breakpoint
CREATE TABLE "recharges" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"patient_id" integer NOT NULL,
	"hospital_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"kind" text NOT NULL,
	"his_kind" text NOT NULL,
	"account_no" text NOT NULL,
	"amount_fen" integer NOT NULL,
	"idempotency_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "recharges_amount_positive" CHECK ("recharges"."amount_fen" > 0)
);
--> statement-breakpoint
ALTER TABLE "his_account_entries" ADD CONSTRAINT "his_account_entries_account_id_his_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."his_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "his_daily_charges" ADD CONSTRAINT "his_daily_charges_admission_id_his_admissions_id_fk" FOREIGN KEY ("admission_id") REFERENCES "public"."his_admissions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "his_deposit_entries" ADD CONSTRAINT "his_deposit_entries_admission_id_his_admissions_id_fk" FOREIGN KEY ("admission_id") REFERENCES "public"."his_admissions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recharges" ADD CONSTRAINT "recharges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recharges" ADD CONSTRAINT "recharges_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recharges" ADD CONSTRAINT "recharges_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recharges" ADD CONSTRAINT "recharges_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "his_admissions_in_key" ON "his_admissions" USING btree ("hospital_code","patient_key") WHERE "his_admissions"."status" = 'in';--> statement-breakpoint
CREATE INDEX "his_admissions_patient_idx" ON "his_admissions" USING btree ("hospital_code","patient_key","admitted_at");--> statement-breakpoint
CREATE INDEX "his_daily_charges_day_idx" ON "his_daily_charges" USING btree ("admission_id","charge_date");--> statement-breakpoint
CREATE UNIQUE INDEX "recharges_order_key" ON "recharges" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "recharges_idempotency_key" ON "recharges" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "recharges_patient_idx" ON "recharges" USING btree ("patient_id","hospital_id","kind","created_at");