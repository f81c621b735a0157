CREATE TABLE "chat_revocations" (
	"account" text PRIMARY KEY NOT NULL,
	"revoked_at" timestamp with time zone NOT NULL
);
