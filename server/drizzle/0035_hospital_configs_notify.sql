-- A hospital's settings (hospital_configs: registration hold and cancel deadline, ...) are announced on
-- hospital_changed too, by the function of 0034: each server process keeps what it derived from them beside the
-- hospital rows (domain/hospitalCache.ts) and forgets it all on any change.
CREATE TRIGGER "hospital_configs_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "hospital_configs" FOR EACH STATEMENT EXECUTE FUNCTION "hospital_changed_notify"();
