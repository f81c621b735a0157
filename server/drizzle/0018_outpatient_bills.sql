CREATE TABLE "his_bill_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"bill_id" integer NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"spec" text NOT NULL,
	"unit" text NOT NULL,
	"quantity" integer NOT NULL,
	"unit_price_fen" integer NOT NULL,
	"amount_fen" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "his_bills" (
	"id" serial PRIMARY KEY NOT NULL,
	"hospital_code" text NOT NULL,
	"bill_no" text NOT NULL,
	"patient_key" text NOT NULL,
	"patient_name_enc" text NOT NULL,
	"visit_no" text NOT NULL,
	"visit_date" text NOT NULL,
	"dept_name" text NOT NULL,
	"doctor_name" text NOT NULL,
	"title" text NOT NULL,
	"category" text NOT NULL,
	"place" text NOT NULL,
	"amount_fen" integer NOT NULL,
	"status" text NOT NULL,
	"order_no" text,
	"paid_at" timestamp with time zone,
	"performed_at" timestamp with time zone,
	"refunded_at" timestamp with time zone,
	"ordered_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "his_price_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"hospital_code" text NOT NULL,
	"code" text NOT NULL,
	"category" text NOT NULL,
	"name" text NOT NULL,
	"spec" text NOT NULL,
	"unit" text NOT NULL,
	"price_fen" integer NOT NULL,
	"place" text NOT NULL,
	"sort" integer NOT NULL,
	CONSTRAINT "his_price_items_key" UNIQUE("hospital_code","code")
);
--> statement-breakpoint
CREATE TABLE "his_queue_tickets" (
	"id" serial PRIMARY KEY NOT NULL,
	"queue_id" integer NOT NULL,
	"seq" integer NOT NULL,
	"order_no" text NOT NULL,
	"patient_key" text NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"called_at" timestamp with time zone,
	CONSTRAINT "his_queue_tickets_seq_key" UNIQUE("queue_id","seq"),
	CONSTRAINT "his_queue_tickets_order_key" UNIQUE("order_no","queue_id")
);
--> statement-breakpoint
CREATE TABLE "his_queues" (
	"id" serial PRIMARY KEY NOT NULL,
	"hospital_code" text NOT NULL,
	"kind" text NOT NULL,
	"place" text NOT NULL,
	"window" text NOT NULL,
	"location" text NOT NULL,
	"prefix" text NOT NULL,
	"last_issued" integer DEFAULT 0 NOT NULL,
	"last_called" integer DEFAULT 0 NOT NULL,
	"open" boolean DEFAULT true NOT NULL,
	CONSTRAINT "his_queues_key" UNIQUE("hospital_code","place","window")
);
--> statement-breakpoint
CREATE TABLE "outpatient_bills" (
	"id" serial PRIMARY KEY NOT NULL,
	"payment_id" integer NOT NULL,
	"hospital_id" integer NOT NULL,
	"bill_no" text NOT NULL,
	"visit_no" text NOT NULL,
	"visit_date" text NOT NULL,
	"dept_name" text NOT NULL,
	"doctor_name" text NOT NULL,
	"title" text NOT NULL,
	"category" text NOT NULL,
	"place" text NOT NULL,
	"amount_fen" integer NOT NULL,
	"items_enc" text NOT NULL,
	"ordered_at" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outpatient_payments" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"patient_id" integer NOT NULL,
	"hospital_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"his_kind" text NOT NULL,
	"source_type" integer DEFAULT 0 NOT NULL,
	"amount_fen" integer NOT NULL,
	"idempotency_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "his_bill_items" ADD CONSTRAINT "his_bill_items_bill_id_his_bills_id_fk" FOREIGN KEY ("bill_id") REFERENCES "public"."his_bills"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "his_queue_tickets" ADD CONSTRAINT "his_queue_tickets_queue_id_his_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."his_queues"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outpatient_bills" ADD CONSTRAINT "outpatient_bills_payment_id_outpatient_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."outpatient_payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outpatient_bills" ADD CONSTRAINT "outpatient_bills_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outpatient_payments" ADD CONSTRAINT "outpatient_payments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outpatient_payments" ADD CONSTRAINT "outpatient_payments_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outpatient_payments" ADD CONSTRAINT "outpatient_payments_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outpatient_payments" ADD CONSTRAINT "outpatient_payments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "his_bill_items_bill_idx" ON "his_bill_items" USING btree ("bill_id");--> statement-breakpoint
CREATE UNIQUE INDEX "his_bills_bill_no_key" ON "his_bills" USING btree ("hospital_code","bill_no");--> statement-breakpoint
CREATE INDEX "his_bills_patient_idx" ON "his_bills" USING btree ("hospital_code","patient_key","status");--> statement-breakpoint
CREATE INDEX "his_bills_order_idx" ON "his_bills" USING btree ("order_no");--> statement-breakpoint
CREATE INDEX "his_price_items_sort_idx" ON "his_price_items" USING btree ("hospital_code","sort");--> statement-breakpoint
CREATE INDEX "his_queue_tickets_waiting_idx" ON "his_queue_tickets" USING btree ("queue_id","status","seq");--> statement-breakpoint
CREATE INDEX "outpatient_bills_payment_idx" ON "outpatient_bills" USING btree ("payment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "outpatient_bills_live_key" ON "outpatient_bills" USING btree ("hospital_id","bill_no") WHERE "outpatient_bills"."status" in ('holding', 'paid');--> statement-breakpoint
CREATE UNIQUE INDEX "outpatient_payments_order_key" ON "outpatient_payments" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "outpatient_payments_idempotency_key" ON "outpatient_payments" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "outpatient_payments_user_idx" ON "outpatient_payments" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "outpatient_payments_patient_idx" ON "outpatient_payments" USING btree ("patient_id","hospital_id");