CREATE TABLE "his_physical_days" (
	"id" serial PRIMARY KEY NOT NULL,
	"hospital_code" text NOT NULL,
	"exam_date" text NOT NULL,
	"capacity" integer NOT NULL,
	"booked" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "his_physical_days_key" UNIQUE("hospital_code","exam_date"),
	CONSTRAINT "his_physical_days_within" CHECK ("his_physical_days"."booked" >= 0 and "his_physical_days"."booked" <= "his_physical_days"."capacity")
);
--> statement-breakpoint
CREATE TABLE "his_physical_exams" (
	"id" serial PRIMARY KEY NOT NULL,
	"hospital_code" text NOT NULL,
	"exam_no" text NOT NULL,
	"patient_key" text NOT NULL,
	"patient_name_enc" text NOT NULL,
	"sex" integer NOT NULL,
	"birthday" text NOT NULL,
	"package_code" text NOT NULL,
	"package_name" text NOT NULL,
	"exam_date" text NOT NULL,
	"status" text NOT NULL,
	"order_no" text,
	"paid_at" timestamp with time zone,
	"checked_in_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"report_enc" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "his_physical_exams_no_key" UNIQUE("hospital_code","exam_no")
);
--> statement-breakpoint
CREATE TABLE "physical_appointments" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"patient_id" integer NOT NULL,
	"hospital_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"his_kind" text NOT NULL,
	"exam_no" text NOT NULL,
	"package_code" text NOT NULL,
	"package_name" text NOT NULL,
	"exam_date" text NOT NULL,
	"amount_fen" integer NOT NULL,
	"status" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"cancelled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "physical_appointments_amount_positive" CHECK ("physical_appointments"."amount_fen" > 0)
);
--> statement-breakpoint
ALTER TABLE "physical_appointments" ADD CONSTRAINT "physical_appointments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "physical_appointments" ADD CONSTRAINT "physical_appointments_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "physical_appointments" ADD CONSTRAINT "physical_appointments_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "physical_appointments" ADD CONSTRAINT "physical_appointments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "his_physical_exams_patient_idx" ON "his_physical_exams" USING btree ("hospital_code","patient_key");--> statement-breakpoint
CREATE INDEX "his_physical_exams_day_idx" ON "his_physical_exams" USING btree ("hospital_code","exam_date");--> statement-breakpoint
CREATE UNIQUE INDEX "physical_appointments_order_key" ON "physical_appointments" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "physical_appointments_exam_no_key" ON "physical_appointments" USING btree ("exam_no");--> statement-breakpoint
CREATE UNIQUE INDEX "physical_appointments_idempotency_key" ON "physical_appointments" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "physical_appointments_patient_day_key" ON "physical_appointments" USING btree ("patient_id","hospital_id","exam_date") WHERE "physical_appointments"."status" in ('holding', 'booked');--> statement-breakpoint
CREATE INDEX "physical_appointments_user_idx" ON "physical_appointments" USING btree ("user_id","created_at");