CREATE TABLE "chat_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"from_account" text NOT NULL,
	"to_account" text NOT NULL,
	"pair_key" text NOT NULL,
	"order_no" text,
	"type" text NOT NULL,
	"payload_enc" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"client_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_reads" (
	"account" text NOT NULL,
	"peer" text NOT NULL,
	"last_read_id" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "chat_messages_client_key" ON "chat_messages" USING btree ("from_account","client_id");--> statement-breakpoint
CREATE INDEX "chat_messages_pair_idx" ON "chat_messages" USING btree ("pair_key","id");--> statement-breakpoint
CREATE INDEX "chat_messages_to_idx" ON "chat_messages" USING btree ("to_account","from_account","id");--> statement-breakpoint
CREATE UNIQUE INDEX "chat_reads_key" ON "chat_reads" USING btree ("account","peer");