CREATE TABLE "his_report_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"report_id" integer NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"value" text NOT NULL,
	"unit" text NOT NULL,
	"range" text NOT NULL,
	"low" double precision,
	"high" double precision,
	"flag" text NOT NULL,
	"sort" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "his_reports" (
	"id" serial PRIMARY KEY NOT NULL,
	"hospital_code" text NOT NULL,
	"report_no" text NOT NULL,
	"patient_key" text NOT NULL,
	"patient_name_enc" text NOT NULL,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"dept_name" text NOT NULL,
	"doctor_name" text NOT NULL,
	"reporter_name" text NOT NULL,
	"checker_name" text NOT NULL,
	"specimen" text DEFAULT '' NOT NULL,
	"modality" text DEFAULT '' NOT NULL,
	"exam_part" text DEFAULT '' NOT NULL,
	"device" text DEFAULT '' NOT NULL,
	"findings" text DEFAULT '' NOT NULL,
	"impression" text DEFAULT '' NOT NULL,
	"study_uid" text DEFAULT '' NOT NULL,
	"requested_at" timestamp with time zone NOT NULL,
	"reported_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_reads" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"ref_id" integer NOT NULL,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_refs" (
	"id" serial PRIMARY KEY NOT NULL,
	"hospital_id" integer NOT NULL,
	"patient_id" integer NOT NULL,
	"kind" text NOT NULL,
	"report_no" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_verifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"session_id" integer NOT NULL,
	"patient_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "his_report_items" ADD CONSTRAINT "his_report_items_report_id_his_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."his_reports"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_reads" ADD CONSTRAINT "report_reads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_reads" ADD CONSTRAINT "report_reads_ref_id_report_refs_id_fk" FOREIGN KEY ("ref_id") REFERENCES "public"."report_refs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_refs" ADD CONSTRAINT "report_refs_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_refs" ADD CONSTRAINT "report_refs_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_verifications" ADD CONSTRAINT "report_verifications_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_verifications" ADD CONSTRAINT "report_verifications_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "his_report_items_report_idx" ON "his_report_items" USING btree ("report_id","sort");--> statement-breakpoint
CREATE UNIQUE INDEX "his_reports_report_no_key" ON "his_reports" USING btree ("hospital_code","report_no");--> statement-breakpoint
CREATE INDEX "his_reports_patient_idx" ON "his_reports" USING btree ("hospital_code","patient_key","kind","reported_at");--> statement-breakpoint
CREATE UNIQUE INDEX "report_reads_key" ON "report_reads" USING btree ("user_id","ref_id");--> statement-breakpoint
CREATE UNIQUE INDEX "report_refs_key" ON "report_refs" USING btree ("hospital_id","patient_id","report_no");--> statement-breakpoint
CREATE UNIQUE INDEX "report_verifications_key" ON "report_verifications" USING btree ("session_id","patient_id");