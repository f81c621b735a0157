CREATE TABLE "diagnosis_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"hospital_id" integer NOT NULL,
	"doctor_id" integer,
	"name" text NOT NULL,
	"diagnoses" jsonb NOT NULL,
	"lines" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "drug_types" (
	"id" serial PRIMARY KEY NOT NULL,
	"hospital_id" integer NOT NULL,
	"name" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "drugs" (
	"id" serial PRIMARY KEY NOT NULL,
	"hospital_id" integer NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"common_name" text DEFAULT '' NOT NULL,
	"category" text NOT NULL,
	"spec" text DEFAULT '' NOT NULL,
	"spec_unit" text DEFAULT '' NOT NULL,
	"unit" text NOT NULL,
	"dosage_form" text DEFAULT '' NOT NULL,
	"manufacturer" text DEFAULT '' NOT NULL,
	"default_usage" text DEFAULT '' NOT NULL,
	"price_fen" integer NOT NULL,
	"rx" boolean DEFAULT true NOT NULL,
	"on_shelf" boolean DEFAULT false NOT NULL,
	"type_id" integer,
	"picture" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "drugs_price_positive" CHECK ("drugs"."price_fen" > 0)
);
--> statement-breakpoint
CREATE TABLE "pharmacists" (
	"id" serial PRIMARY KEY NOT NULL,
	"hospital_id" integer NOT NULL,
	"name" text NOT NULL,
	"title" text DEFAULT '药师' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pharmacy_order_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"pharmacy_order_id" integer NOT NULL,
	"status" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pharmacy_order_lines" (
	"id" serial PRIMARY KEY NOT NULL,
	"pharmacy_order_id" integer NOT NULL,
	"drug_id" integer NOT NULL,
	"drug_name" text NOT NULL,
	"spec" text NOT NULL,
	"unit" text NOT NULL,
	"quantity" integer NOT NULL,
	"price_fen" integer NOT NULL,
	CONSTRAINT "pharmacy_order_lines_quantity" CHECK ("pharmacy_order_lines"."quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "pharmacy_orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_code" text NOT NULL,
	"user_id" integer NOT NULL,
	"hospital_id" integer NOT NULL,
	"patient_id" integer,
	"prescription_id" integer,
	"source" text NOT NULL,
	"store_id" integer NOT NULL,
	"delivery" text NOT NULL,
	"address_enc" text,
	"city_code" integer,
	"drug_fee_fen" integer NOT NULL,
	"diagnosis_fee_fen" integer DEFAULT 0 NOT NULL,
	"express_fee_fen" integer DEFAULT 0 NOT NULL,
	"total_fen" integer NOT NULL,
	"status" text DEFAULT 'unpaid' NOT NULL,
	"order_id" integer,
	"carrier" text,
	"tracking_no" text,
	"pickup_code" text,
	"refund_reason" text,
	"paid_at" timestamp with time zone,
	"shipped_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"stock_returned_at" timestamp with time zone,
	"idempotency_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pharmacy_stores" (
	"id" serial PRIMARY KEY NOT NULL,
	"hospital_id" integer NOT NULL,
	"name" text NOT NULL,
	"address" text NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"hours" text DEFAULT '' NOT NULL,
	"intro" text DEFAULT '' NOT NULL,
	"latitude" text,
	"longitude" text,
	"delivery" boolean DEFAULT true NOT NULL,
	"pickup" boolean DEFAULT true NOT NULL,
	"express_fee_fen" integer DEFAULT 1500 NOT NULL,
	"free_shipping_from_fen" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "prescription_lines" (
	"id" serial PRIMARY KEY NOT NULL,
	"prescription_id" integer NOT NULL,
	"line_no" integer NOT NULL,
	"drug_id" integer NOT NULL,
	"drug_name" text NOT NULL,
	"spec" text NOT NULL,
	"unit" text NOT NULL,
	"dose" text NOT NULL,
	"frequency" text NOT NULL,
	"days" integer NOT NULL,
	"quantity" integer NOT NULL,
	"price_fen" integer NOT NULL,
	CONSTRAINT "prescription_lines_quantity" CHECK ("prescription_lines"."quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "prescriptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"pres_no" text NOT NULL,
	"hospital_id" integer NOT NULL,
	"inquiry_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"patient_id" integer NOT NULL,
	"doctor_id" integer NOT NULL,
	"category" text NOT NULL,
	"diagnoses_enc" text NOT NULL,
	"advice_enc" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'reviewing' NOT NULL,
	"drug_fee_fen" integer NOT NULL,
	"diagnosis_fee_fen" integer DEFAULT 0 NOT NULL,
	"renewable" boolean DEFAULT false NOT NULL,
	"pharmacist_id" integer,
	"reviewed_at" timestamp with time zone,
	"reject_reason" text,
	"expires_at" timestamp with time zone NOT NULL,
	"idempotency_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "store_ship_cities" (
	"id" serial PRIMARY KEY NOT NULL,
	"store_id" integer NOT NULL,
	"province_code" integer NOT NULL,
	"city_code" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "store_stock" (
	"id" serial PRIMARY KEY NOT NULL,
	"store_id" integer NOT NULL,
	"drug_id" integer NOT NULL,
	"quantity" integer NOT NULL,
	CONSTRAINT "store_stock_nonnegative" CHECK ("store_stock"."quantity" >= 0)
);
--> statement-breakpoint
ALTER TABLE "staff_accounts" ADD COLUMN "pharmacist_id" integer;--> statement-breakpoint
ALTER TABLE "diagnosis_templates" ADD CONSTRAINT "diagnosis_templates_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "diagnosis_templates" ADD CONSTRAINT "diagnosis_templates_doctor_id_doctors_id_fk" FOREIGN KEY ("doctor_id") REFERENCES "public"."doctors"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drug_types" ADD CONSTRAINT "drug_types_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drugs" ADD CONSTRAINT "drugs_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drugs" ADD CONSTRAINT "drugs_type_id_drug_types_id_fk" FOREIGN KEY ("type_id") REFERENCES "public"."drug_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pharmacists" ADD CONSTRAINT "pharmacists_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pharmacy_order_events" ADD CONSTRAINT "pharmacy_order_events_pharmacy_order_id_pharmacy_orders_id_fk" FOREIGN KEY ("pharmacy_order_id") REFERENCES "public"."pharmacy_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pharmacy_order_lines" ADD CONSTRAINT "pharmacy_order_lines_pharmacy_order_id_pharmacy_orders_id_fk" FOREIGN KEY ("pharmacy_order_id") REFERENCES "public"."pharmacy_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pharmacy_order_lines" ADD CONSTRAINT "pharmacy_order_lines_drug_id_drugs_id_fk" FOREIGN KEY ("drug_id") REFERENCES "public"."drugs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pharmacy_orders" ADD CONSTRAINT "pharmacy_orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pharmacy_orders" ADD CONSTRAINT "pharmacy_orders_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pharmacy_orders" ADD CONSTRAINT "pharmacy_orders_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pharmacy_orders" ADD CONSTRAINT "pharmacy_orders_prescription_id_prescriptions_id_fk" FOREIGN KEY ("prescription_id") REFERENCES "public"."prescriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pharmacy_orders" ADD CONSTRAINT "pharmacy_orders_store_id_pharmacy_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."pharmacy_stores"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pharmacy_orders" ADD CONSTRAINT "pharmacy_orders_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pharmacy_stores" ADD CONSTRAINT "pharmacy_stores_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescription_lines" ADD CONSTRAINT "prescription_lines_prescription_id_prescriptions_id_fk" FOREIGN KEY ("prescription_id") REFERENCES "public"."prescriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescription_lines" ADD CONSTRAINT "prescription_lines_drug_id_drugs_id_fk" FOREIGN KEY ("drug_id") REFERENCES "public"."drugs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD CONSTRAINT "prescriptions_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD CONSTRAINT "prescriptions_inquiry_id_inquiries_id_fk" FOREIGN KEY ("inquiry_id") REFERENCES "public"."inquiries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD CONSTRAINT "prescriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD CONSTRAINT "prescriptions_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD CONSTRAINT "prescriptions_doctor_id_doctors_id_fk" FOREIGN KEY ("doctor_id") REFERENCES "public"."doctors"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD CONSTRAINT "prescriptions_pharmacist_id_pharmacists_id_fk" FOREIGN KEY ("pharmacist_id") REFERENCES "public"."pharmacists"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_ship_cities" ADD CONSTRAINT "store_ship_cities_store_id_pharmacy_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."pharmacy_stores"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_stock" ADD CONSTRAINT "store_stock_store_id_pharmacy_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."pharmacy_stores"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_stock" ADD CONSTRAINT "store_stock_drug_id_drugs_id_fk" FOREIGN KEY ("drug_id") REFERENCES "public"."drugs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "diagnosis_templates_hospital_idx" ON "diagnosis_templates" USING btree ("hospital_id","doctor_id");--> statement-breakpoint
CREATE UNIQUE INDEX "drugs_code_key" ON "drugs" USING btree ("hospital_id","code");--> statement-breakpoint
CREATE INDEX "drugs_type_idx" ON "drugs" USING btree ("hospital_id","type_id");--> statement-breakpoint
CREATE INDEX "pharmacy_order_events_order_idx" ON "pharmacy_order_events" USING btree ("pharmacy_order_id");--> statement-breakpoint
CREATE INDEX "pharmacy_order_lines_order_idx" ON "pharmacy_order_lines" USING btree ("pharmacy_order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "pharmacy_orders_code_key" ON "pharmacy_orders" USING btree ("order_code");--> statement-breakpoint
CREATE UNIQUE INDEX "pharmacy_orders_idempotency_key" ON "pharmacy_orders" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "pharmacy_orders_user_idx" ON "pharmacy_orders" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "pharmacy_orders_store_idx" ON "pharmacy_orders" USING btree ("store_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "pharmacy_orders_live_prescription_key" ON "pharmacy_orders" USING btree ("prescription_id") WHERE "pharmacy_orders"."prescription_id" is not null and "pharmacy_orders"."status" not in ('cancelled', 'closed', 'refunded');--> statement-breakpoint
CREATE UNIQUE INDEX "prescription_lines_key" ON "prescription_lines" USING btree ("prescription_id","line_no");--> statement-breakpoint
CREATE UNIQUE INDEX "prescriptions_pres_no_key" ON "prescriptions" USING btree ("pres_no");--> statement-breakpoint
CREATE UNIQUE INDEX "prescriptions_idempotency_key" ON "prescriptions" USING btree ("doctor_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "prescriptions_user_idx" ON "prescriptions" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "prescriptions_inquiry_idx" ON "prescriptions" USING btree ("inquiry_id");--> statement-breakpoint
CREATE INDEX "prescriptions_review_idx" ON "prescriptions" USING btree ("hospital_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "store_ship_cities_key" ON "store_ship_cities" USING btree ("store_id","city_code");--> statement-breakpoint
CREATE UNIQUE INDEX "store_stock_key" ON "store_stock" USING btree ("store_id","drug_id");--> statement-breakpoint
ALTER TABLE "staff_accounts" ADD CONSTRAINT "staff_accounts_pharmacist_id_pharmacists_id_fk" FOREIGN KEY ("pharmacist_id") REFERENCES "public"."pharmacists"("id") ON DELETE no action ON UPDATE no action;