CREATE TABLE "user_suggestions" (
	"id" serial PRIMARY KEY NOT NULL,
	"hospital_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"idempotency_key" text NOT NULL,
	"kind" text NOT NULL,
	"content_enc" text,
	"pictures" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"answer" text DEFAULT '' NOT NULL,
	"answered_by" integer,
	"answered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user_suggestions" ADD CONSTRAINT "user_suggestions_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_suggestions" ADD CONSTRAINT "user_suggestions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_suggestions" ADD CONSTRAINT "user_suggestions_answered_by_staff_accounts_id_fk" FOREIGN KEY ("answered_by") REFERENCES "public"."staff_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "user_suggestions_idempotency_key" ON "user_suggestions" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "user_suggestions_user_idx" ON "user_suggestions" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "user_suggestions_desk_idx" ON "user_suggestions" USING btree ("hospital_id","status","id");