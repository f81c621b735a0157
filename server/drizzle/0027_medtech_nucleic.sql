CREATE TABLE "his_exam_appointments" (
	"id" serial PRIMARY KEY NOT NULL,
	"hospital_code" text NOT NULL,
	"appointment_no" text NOT NULL,
	"bill_no" text NOT NULL,
	"patient_key" text NOT NULL,
	"patient_name_enc" text NOT NULL,
	"slot_id" integer NOT NULL,
	"status" text NOT NULL,
	"request_no" text NOT NULL,
	"rescheduled" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "his_exam_appointments_no" UNIQUE("hospital_code","appointment_no")
);
--> statement-breakpoint
CREATE TABLE "his_exam_devices" (
	"id" serial PRIMARY KEY NOT NULL,
	"hospital_code" text NOT NULL,
	"place" text NOT NULL,
	"name" text NOT NULL,
	"location" text NOT NULL,
	"times" text NOT NULL,
	"per_slot" integer NOT NULL,
	"weekdays" text NOT NULL,
	"sort" integer NOT NULL,
	CONSTRAINT "his_exam_devices_key" UNIQUE("hospital_code","name")
);
--> statement-breakpoint
CREATE TABLE "his_exam_slots" (
	"id" serial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"date" text NOT NULL,
	"start_time" text NOT NULL,
	"end_time" text NOT NULL,
	"capacity" integer NOT NULL,
	"booked" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "his_exam_slots_key" UNIQUE("device_id","date","start_time"),
	CONSTRAINT "his_exam_slots_capacity" CHECK ("his_exam_slots"."booked" >= 0 and "his_exam_slots"."booked" <= "his_exam_slots"."capacity")
);
--> statement-breakpoint
CREATE TABLE "his_nucleic_kinds" (
	"id" serial PRIMARY KEY NOT NULL,
	"hospital_code" text NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"price_fen" integer NOT NULL,
	"description" text NOT NULL,
	"place" text NOT NULL,
	"sort" integer NOT NULL,
	CONSTRAINT "his_nucleic_kinds_key" UNIQUE("hospital_code","code")
);
--> statement-breakpoint
CREATE TABLE "his_nucleic_tests" (
	"id" serial PRIMARY KEY NOT NULL,
	"hospital_code" text NOT NULL,
	"sample_no" text NOT NULL,
	"order_no" text NOT NULL,
	"patient_key" text NOT NULL,
	"patient_name_enc" text NOT NULL,
	"kind_code" text NOT NULL,
	"kind_name" text NOT NULL,
	"amount_fen" integer NOT NULL,
	"status" text NOT NULL,
	"result" text,
	"registered_at" timestamp with time zone NOT NULL,
	"sampled_at" timestamp with time zone,
	"reported_at" timestamp with time zone,
	CONSTRAINT "his_nucleic_tests_sample" UNIQUE("hospital_code","sample_no"),
	CONSTRAINT "his_nucleic_tests_order" UNIQUE("hospital_code","order_no")
);
--> statement-breakpoint
CREATE TABLE "nucleic_orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"patient_id" integer NOT NULL,
	"hospital_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"his_kind" text NOT NULL,
	"kind_code" text NOT NULL,
	"kind_name" text NOT NULL,
	"amount_fen" integer NOT NULL,
	"sample_no" text,
	"idempotency_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "his_exam_appointments" ADD CONSTRAINT "his_exam_appointments_slot_id_his_exam_slots_id_fk" FOREIGN KEY ("slot_id") REFERENCES "public"."his_exam_slots"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "his_exam_slots" ADD CONSTRAINT "his_exam_slots_device_id_his_exam_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."his_exam_devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "nucleic_orders" ADD CONSTRAINT "nucleic_orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "nucleic_orders" ADD CONSTRAINT "nucleic_orders_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "nucleic_orders" ADD CONSTRAINT "nucleic_orders_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "nucleic_orders" ADD CONSTRAINT "nucleic_orders_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "his_exam_appointments_live_key" ON "his_exam_appointments" USING btree ("hospital_code","bill_no") WHERE "his_exam_appointments"."status" = 'booked';--> statement-breakpoint
CREATE INDEX "his_exam_appointments_patient_idx" ON "his_exam_appointments" USING btree ("hospital_code","patient_key");--> statement-breakpoint
CREATE INDEX "his_exam_appointments_slot_idx" ON "his_exam_appointments" USING btree ("slot_id");--> statement-breakpoint
CREATE INDEX "his_exam_devices_place_idx" ON "his_exam_devices" USING btree ("hospital_code","place");--> statement-breakpoint
CREATE INDEX "his_nucleic_tests_patient_idx" ON "his_nucleic_tests" USING btree ("hospital_code","patient_key");--> statement-breakpoint
CREATE UNIQUE INDEX "nucleic_orders_order_key" ON "nucleic_orders" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "nucleic_orders_idempotency_key" ON "nucleic_orders" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "nucleic_orders_user_idx" ON "nucleic_orders" USING btree ("user_id","created_at");