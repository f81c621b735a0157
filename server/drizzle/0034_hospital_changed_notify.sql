-- Every change to a hospital row, by the app, a seed or an operator's SQL, is announced on hospital_changed, once
-- per statement: each server process keeps the hospitals it has read (domain/hospitalCache.ts) and forgets them then.
CREATE FUNCTION "hospital_changed_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('hospital_changed', TG_OP);
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "hospital_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "hospitals" FOR EACH STATEMENT EXECUTE FUNCTION "hospital_changed_notify"();
