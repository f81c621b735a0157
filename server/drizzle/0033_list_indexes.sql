DROP INDEX "inquiries_doctor_idx";--> statement-breakpoint
CREATE INDEX "orders_unpaid_expiry_idx" ON "orders" USING btree ("expires_at") WHERE "orders"."status" in ('created', 'paying');--> statement-breakpoint
CREATE INDEX "inquiries_doctor_desk_idx" ON "inquiries" USING btree ("doctor_id","paid_at","status");--> statement-breakpoint
CREATE INDEX "inquiries_hospital_desk_idx" ON "inquiries" USING btree ("hospital_id","paid_at","status");--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at");--> statement-breakpoint
CREATE INDEX "pharmacy_orders_hospital_idx" ON "pharmacy_orders" USING btree ("hospital_id","created_at");