CREATE TABLE "insurance_auth_codes" (
	"code_hash" text PRIMARY KEY NOT NULL,
	"person_enc" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "insurance_auths" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"patient_id" integer NOT NULL,
	"channel" text NOT NULL,
	"pay_auth_no_enc" text NOT NULL,
	"insu_type" text NOT NULL,
	"insu_type_name" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "insurance_settlements" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"auth_id" integer NOT NULL,
	"pay_ord_id" text NOT NULL,
	"total_fen" integer NOT NULL,
	"fund_fen" integer NOT NULL,
	"account_fen" integer NOT NULL,
	"cash_fen" integer NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "insurance" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "insurance_auths" ADD CONSTRAINT "insurance_auths_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "insurance_auths" ADD CONSTRAINT "insurance_auths_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "insurance_settlements" ADD CONSTRAINT "insurance_settlements_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "insurance_settlements" ADD CONSTRAINT "insurance_settlements_auth_id_insurance_auths_id_fk" FOREIGN KEY ("auth_id") REFERENCES "public"."insurance_auths"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "insurance_auths_patient_idx" ON "insurance_auths" USING btree ("patient_id","expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "insurance_settlements_order_key" ON "insurance_settlements" USING btree ("order_id");