CREATE TABLE "staff_login_failures" (
	"login" text NOT NULL,
	"address" text NOT NULL,
	"failures" integer NOT NULL,
	"locked_until" timestamp with time zone,
	"last_failure_at" timestamp with time zone NOT NULL,
	CONSTRAINT "staff_login_failures_login_address_pk" PRIMARY KEY("login","address")
);
--> statement-breakpoint
CREATE INDEX "staff_login_failures_last_idx" ON "staff_login_failures" USING btree ("last_failure_at");