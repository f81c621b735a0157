CREATE TABLE "sandbox_pay_outbox" (
	"id" serial PRIMARY KEY NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sandbox_pay_refunds" (
	"refund_no" text PRIMARY KEY NOT NULL,
	"order_no" text NOT NULL,
	"amount_fen" integer NOT NULL,
	"provider_refund_no" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_pay_trades" (
	"order_no" text PRIMARY KEY NOT NULL,
	"subject" text NOT NULL,
	"hospital_name" text NOT NULL,
	"amount_fen" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"trade_no" text,
	"paid_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "sandbox_pay_outbox_pending_idx" ON "sandbox_pay_outbox" USING btree ("delivered_at");--> statement-breakpoint
CREATE INDEX "sandbox_pay_refunds_order_idx" ON "sandbox_pay_refunds" USING btree ("order_no");