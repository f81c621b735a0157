CREATE TABLE "sandbox_mini_devices" (
	"provider" text NOT NULL,
	"device" text NOT NULL,
	"person" text NOT NULL,
	"confirmed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_mini_devices_provider_device_pk" PRIMARY KEY("provider","device")
);
--> statement-breakpoint
CREATE TABLE "sandbox_mini_logins" (
	"provider" text NOT NULL,
	"device" text NOT NULL,
	"nonce" text NOT NULL,
	"app_id" text NOT NULL,
	"person" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sandbox_mini_logins_provider_device_nonce_pk" PRIMARY KEY("provider","device","nonce")
);
