-- Objects Kova cannot run yet, among supported ones: restoring a dump of
-- this database must fail each of them with 0A000 naming the object, and
-- still restore everything else.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE TABLE items (id serial PRIMARY KEY, name text, price numeric(8,2));
CREATE FUNCTION item_price_check() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.price < 0 THEN RAISE EXCEPTION 'negative price'; END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER items_price BEFORE INSERT OR UPDATE ON items
  FOR EACH ROW EXECUTE FUNCTION item_price_check();
CREATE MATERIALIZED VIEW item_names AS SELECT id, name FROM items;
CREATE TABLE notes (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, body text);
INSERT INTO items (name, price) VALUES ('kettle', 20), ('mug', 4.5);
INSERT INTO notes (body) VALUES ('one'), ('two'), ('three');
REFRESH MATERIALIZED VIEW item_names;
