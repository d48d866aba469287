--
-- ALTER TABLE / VIEW / SEQUENCE ... SET SCHEMA
--
CREATE SCHEMA ss_one;
CREATE SCHEMA ss_two;

-- A table with a serial and an identity column, a unique constraint, an
-- index, a foreign key from another table and views over it.
CREATE TABLE ss_one.ss_items (
    id serial PRIMARY KEY,
    code int GENERATED ALWAYS AS IDENTITY,
    label text UNIQUE,
    qty int
);
CREATE INDEX ss_items_qty_idx ON ss_one.ss_items (qty);
INSERT INTO ss_one.ss_items (label, qty) VALUES ('a', 1), ('b', 2), ('c', 3);
CREATE TABLE ss_one.ss_refs (item int REFERENCES ss_one.ss_items (id), note text);
INSERT INTO ss_one.ss_refs VALUES (1, 'first'), (2, 'second');
CREATE VIEW ss_one.ss_item_labels AS
    SELECT id, label FROM ss_one.ss_items WHERE id > 1;
-- Names found through the search path: the table's and a view's.
SET search_path = ss_one, public;
CREATE VIEW ss_item_count AS SELECT count(*) AS n FROM ss_items;
CREATE VIEW ss_joined AS
    SELECT r.note, i.label FROM ss_one.ss_refs r JOIN ss_items i ON i.id = r.item;
ALTER TABLE ss_items SET SCHEMA ss_two;
SELECT * FROM ss_item_count;
RESET search_path;
\d ss_two.ss_items
\d ss_one.ss_refs
SELECT n.nspname, c.relname, c.relkind
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE c.relname LIKE 'ss_items%' ORDER BY 2;
SELECT pg_get_serial_sequence('ss_two.ss_items', 'id'),
       pg_get_serial_sequence('ss_two.ss_items', 'code');
-- The data stays; the counters go on from where they were.
SELECT * FROM ss_two.ss_items ORDER BY id;
INSERT INTO ss_two.ss_items (label, qty) VALUES ('d', 4) RETURNING id, code;
SELECT nextval('ss_two.ss_items_id_seq');
INSERT INTO ss_two.ss_items (label, qty) VALUES ('e', 5) RETURNING id, code;
SELECT last_value FROM ss_two.ss_items_code_seq;
-- Its constraints and indexes came along.
INSERT INTO ss_two.ss_items (id, label) VALUES (1, 'dup id');
INSERT INTO ss_two.ss_items (label) VALUES ('a');
SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'ss_items'
 ORDER BY 1;
-- The old names are gone.
SELECT * FROM ss_one.ss_items;
SELECT nextval('ss_one.ss_items_id_seq');
-- The foreign key still enforces, both ways.
INSERT INTO ss_one.ss_refs VALUES (99, 'missing');
DELETE FROM ss_two.ss_items WHERE id = 1;
INSERT INTO ss_one.ss_refs VALUES (4, 'fourth');
-- Views over it keep working, qualified or not.
SELECT * FROM ss_one.ss_item_labels ORDER BY id;
SELECT * FROM ss_one.ss_item_count;
SELECT * FROM ss_one.ss_joined ORDER BY note;

-- Errors
ALTER TABLE ss_two.ss_items SET SCHEMA ss_nope;
ALTER TABLE ss_nope.ss_items SET SCHEMA ss_one;
ALTER TABLE ss_two.ss_nothing SET SCHEMA ss_one;
ALTER TABLE IF EXISTS ss_two.ss_nothing SET SCHEMA ss_one;
ALTER TABLE IF EXISTS ss_nope.ss_nothing SET SCHEMA ss_one;
ALTER VIEW IF EXISTS ss_two.ss_nothing SET SCHEMA ss_one;
ALTER SEQUENCE IF EXISTS ss_two.ss_nothing SET SCHEMA ss_one;
-- A name taken in the target: the table's, its row type's, an index's,
-- an owned sequence's.
CREATE TABLE ss_one.ss_items (x int);
ALTER TABLE ss_two.ss_items SET SCHEMA ss_one;
DROP TABLE ss_one.ss_items;
CREATE TYPE ss_one.ss_items AS ENUM ('x');
ALTER TABLE ss_two.ss_items SET SCHEMA ss_one;
DROP TYPE ss_one.ss_items;
CREATE TABLE ss_one.ss_items_label_key (x int);
ALTER TABLE ss_two.ss_items SET SCHEMA ss_one;
DROP TABLE ss_one.ss_items_label_key;
CREATE SEQUENCE ss_one.ss_items_code_seq;
ALTER TABLE ss_two.ss_items SET SCHEMA ss_one;
DROP SEQUENCE ss_one.ss_items_code_seq;
-- Owned sequences move only with their table.
ALTER SEQUENCE ss_two.ss_items_id_seq SET SCHEMA ss_one;
ALTER SEQUENCE ss_two.ss_items_code_seq SET SCHEMA ss_one;
ALTER TABLE ss_two.ss_items_id_seq SET SCHEMA ss_one;
-- The wrong kind of relation.
ALTER VIEW ss_two.ss_items SET SCHEMA ss_one;
ALTER SEQUENCE ss_two.ss_items SET SCHEMA ss_one;
ALTER SEQUENCE ss_one.ss_item_labels SET SCHEMA ss_two;
ALTER TABLE ss_two.ss_items_pkey SET SCHEMA ss_one;
ALTER MATERIALIZED VIEW ss_one.ss_item_labels SET SCHEMA ss_two;
ALTER FOREIGN TABLE ss_two.ss_items SET SCHEMA ss_one;
ALTER MATERIALIZED VIEW IF EXISTS ss_one.ss_nothing SET SCHEMA ss_two;
-- Schemas a relation cannot move into or out of.
ALTER TABLE ss_two.ss_items SET SCHEMA pg_toast;
ALTER TABLE pg_class SET SCHEMA ss_one;
CREATE TEMP TABLE ss_temp (a int);
ALTER TABLE ss_temp SET SCHEMA ss_one;
ALTER TABLE ss_two.ss_items SET SCHEMA pg_temp;
DROP TABLE ss_temp;
-- The schema it is in already: nothing to do.
ALTER TABLE ss_two.ss_items SET SCHEMA ss_two;
SELECT count(*) FROM ss_two.ss_items;

-- Transactional: ROLLBACK puts everything back; the values handed out
-- meanwhile stay used, as sequences are not transactional.
BEGIN;
ALTER TABLE ss_two.ss_items SET SCHEMA public;
INSERT INTO ss_items (label) VALUES ('rolled back') RETURNING id, code;
SELECT nextval('public.ss_items_id_seq');
\d ss_items
ROLLBACK;
SELECT * FROM public.ss_items;
INSERT INTO ss_two.ss_items (label) VALUES ('f') RETURNING id, code;
SELECT * FROM ss_one.ss_item_labels ORDER BY id;
-- And COMMIT keeps it: into public, where \d shows the names unqualified.
BEGIN;
ALTER TABLE ss_two.ss_items SET SCHEMA public;
COMMIT;
\d ss_items
INSERT INTO ss_items (label) VALUES ('g') RETURNING id, code;
SELECT * FROM ss_one.ss_joined ORDER BY note;
ALTER TABLE IF EXISTS ss_items SET SCHEMA ss_two;

-- Sequences of their own, with their counter and the defaults naming them.
CREATE SEQUENCE ss_one.ss_seq START 100;
SELECT nextval('ss_one.ss_seq');
CREATE TABLE ss_one.ss_uses (a int DEFAULT nextval('ss_one.ss_seq'), t text);
CREATE TABLE ss_one.ss_uses_too (b int DEFAULT nextval('ss_one.ss_seq'));
ALTER SEQUENCE ss_one.ss_seq SET SCHEMA ss_two;
\d ss_one.ss_uses
\d ss_one.ss_uses_too
INSERT INTO ss_one.ss_uses (t) VALUES ('x') RETURNING a;
INSERT INTO ss_one.ss_uses_too DEFAULT VALUES RETURNING b;
SELECT nextval('ss_two.ss_seq');
SELECT nextval('ss_one.ss_seq');
CREATE SEQUENCE ss_one.ss_free START 10 INCREMENT 5;
SELECT nextval('ss_one.ss_free'), nextval('ss_one.ss_free');
BEGIN;
ALTER SEQUENCE ss_one.ss_free SET SCHEMA ss_two;
SELECT nextval('ss_two.ss_free');
ROLLBACK;
SELECT nextval('ss_one.ss_free');
-- ALTER TABLE moves a sequence too.
ALTER TABLE ss_one.ss_free SET SCHEMA ss_two;
SELECT nextval('ss_two.ss_free');
SELECT last_value, is_called FROM ss_two.ss_free;
-- A sequence OWNED BY a column moves with the table.
CREATE SEQUENCE ss_one.ss_owned OWNED BY ss_one.ss_uses.t;
SELECT nextval('ss_one.ss_owned');
ALTER SEQUENCE ss_one.ss_owned SET SCHEMA ss_two;
ALTER TABLE ss_one.ss_uses SET SCHEMA ss_two;
SELECT nextval('ss_two.ss_owned');
SELECT n.nspname, c.relname
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE c.relkind = 'S' AND n.nspname LIKE 'ss_%' ORDER BY 2;

-- Views move, and the views reading them follow.
CREATE VIEW ss_one.ss_v AS SELECT label, qty FROM ss_two.ss_items;
CREATE VIEW ss_one.ss_vv AS SELECT label FROM ss_one.ss_v WHERE qty > 2;
ALTER VIEW ss_one.ss_v SET SCHEMA ss_two;
SELECT * FROM ss_one.ss_vv ORDER BY 1;
SELECT * FROM ss_two.ss_v ORDER BY 1;
SELECT * FROM ss_one.ss_v;
ALTER TABLE ss_two.ss_v SET SCHEMA ss_one;
ALTER VIEW ss_one.ss_v SET SCHEMA public;
SELECT * FROM ss_one.ss_vv ORDER BY 1;
-- RENAME moves the same way.
ALTER VIEW public.ss_v RENAME TO ss_v2;
SELECT * FROM ss_one.ss_vv ORDER BY 1;
ALTER VIEW public.ss_v2 RENAME TO ss_v;
ALTER TABLE ss_two.ss_items RENAME TO ss_things;
SELECT * FROM ss_one.ss_vv ORDER BY 1;
SELECT * FROM ss_one.ss_item_count;
INSERT INTO ss_two.ss_things (label) VALUES ('h') RETURNING id, code;
ALTER TABLE ss_two.ss_things RENAME TO ss_items;
SELECT n.nspname, c.relname
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE c.relkind = 'v' AND c.relname LIKE 'ss\_%' ORDER BY 2, 1;
CREATE TABLE ss_one.ss_v (x int);
ALTER VIEW public.ss_v SET SCHEMA ss_one;
DROP TABLE ss_one.ss_v;
CREATE TYPE ss_one.ss_v AS ENUM ('x');
ALTER VIEW public.ss_v SET SCHEMA ss_one;
DROP TYPE ss_one.ss_v;

-- Grants stay with the relation.
CREATE ROLE regress_ss_reader;
GRANT SELECT ON ss_two.ss_items TO regress_ss_reader;
GRANT USAGE ON SEQUENCE ss_two.ss_seq TO regress_ss_reader;
ALTER TABLE ss_two.ss_items SET SCHEMA ss_one;
ALTER SEQUENCE ss_two.ss_seq SET SCHEMA ss_one;
\dp ss_one.ss_items
\dp ss_one.ss_seq
SELECT has_table_privilege('regress_ss_reader', 'ss_one.ss_items', 'SELECT'),
       has_sequence_privilege('regress_ss_reader', 'ss_one.ss_seq', 'USAGE');
REVOKE ALL ON ss_one.ss_items FROM regress_ss_reader;
REVOKE ALL ON SEQUENCE ss_one.ss_seq FROM regress_ss_reader;
DROP ROLE regress_ss_reader;

DROP VIEW ss_one.ss_vv;
DROP VIEW public.ss_v;
DROP VIEW ss_one.ss_item_labels;
DROP VIEW ss_one.ss_item_count;
DROP VIEW ss_one.ss_joined;
DROP TABLE ss_one.ss_refs;
DROP TABLE ss_one.ss_items;
DROP TABLE ss_two.ss_uses;
DROP TABLE ss_one.ss_uses_too;
DROP SEQUENCE ss_one.ss_seq;
DROP SEQUENCE ss_two.ss_free;
DROP SCHEMA ss_one;
DROP SCHEMA ss_two;
