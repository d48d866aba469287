--
-- psql's describe commands (\dt, \dv, \ds, \di, \dn, \du, \l) over the
-- emulated pg_catalog, in a database of their own so that only these
-- objects are listed
--
CREATE DATABASE regress_describe_db;
\c regress_describe_db
CREATE SCHEMA sales;
CREATE TABLE customers (
  id serial PRIMARY KEY,
  email text NOT NULL UNIQUE,
  name varchar(100),
  created date DEFAULT '2020-01-01'
);
CREATE TABLE orders (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  customer_id integer NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
  amount numeric(10,2) NOT NULL DEFAULT 0,
  qty integer CHECK (qty > 0),
  status text DEFAULT 'new',
  note text,
  CONSTRAINT orders_qty_limit CHECK (qty < 1000)
);
CREATE INDEX orders_status_idx ON orders (status);
CREATE UNIQUE INDEX orders_cust_note_idx ON orders (customer_id, note);
CREATE SEQUENCE invoice_seq START 100;
CREATE VIEW big_orders AS SELECT id, amount FROM orders WHERE amount > 100;
COMMENT ON VIEW big_orders IS 'orders above 100';
CREATE TABLE sales.regions (code char(2) PRIMARY KEY, label text);
CREATE SEQUENCE sales.region_seq;
-- lists
\dt
\dt ord*
\dt public.*
\dt sales.*
\dt *.regions
\dt nosuch
\dv
\dv+
\ds
\ds+
\ds sales.*
\di
-- (\di+ and \dt+ show sizes, the store's pages: not PostgreSQL's; see
-- tests/planner_session/session_test.cc)
\di orders*
\dn
\dn sal*
\du postgres
\l regress_describe_db
-- describing one relation
\d orders
\d customers
\d sales.regions
\d invoice_seq
\d customers_id_seq
\d orders_id_seq
\d sales.region_seq
\d orders_status_idx
\d customers_pkey
\d orders_cust_note_idx
\d big_orders
\d nosuch
-- a table named like a catalog relation: pg_catalog comes first in the
-- search path, so \dt (visible relations only) does not list it
CREATE TABLE pg_class (x int);
INSERT INTO public.pg_class VALUES (1);
SELECT x FROM public.pg_class;
\dt
\dt public.pg*
DROP TABLE public.pg_class;
-- the catalog queries ORMs send (SQLAlchemy has_table)
SELECT relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE pg_catalog.pg_table_is_visible(c.oid) AND n.nspname = 'public'
   AND relname = 'orders';
SELECT relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE pg_catalog.pg_table_is_visible(c.oid) AND n.nspname = 'public'
   AND relname = 'nosuch';
SELECT c.relname, c.relkind, n.nspname
  FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
 WHERE n.nspname IN ('public', 'sales') ORDER BY 1;
SELECT nspname FROM pg_namespace WHERE nspname !~ '^pg_' ORDER BY 1;
SELECT pg_catalog.pg_size_pretty(0::bigint), pg_size_pretty(10239::bigint),
       pg_size_pretty(10240::bigint), pg_size_pretty(123456789::bigint);
-- information_schema (knex hasTable / hasColumn, reflection)
select * from information_schema.tables where table_name = 'orders' and table_schema = current_schema();
SELECT table_schema, table_name, table_type FROM information_schema.tables
 WHERE table_schema IN ('public', 'sales') ORDER BY 1, 2;
SELECT column_name, ordinal_position, column_default, is_nullable, data_type,
       character_maximum_length, character_octet_length, numeric_precision,
       numeric_precision_radix, numeric_scale, datetime_precision, udt_name,
       dtd_identifier, is_identity, identity_generation, identity_start,
       identity_increment, identity_maximum, identity_minimum, identity_cycle,
       is_generated, is_updatable
  FROM information_schema.columns
 WHERE table_schema = 'public' AND table_name = 'orders' ORDER BY ordinal_position;
SELECT table_name, column_name, data_type, character_maximum_length, is_nullable
  FROM information_schema.columns WHERE table_schema = 'sales' ORDER BY 1, 2;
-- types and functions: enums and domains (\dT, \dD); Kova has no functions
-- of its own (\df lists none)
CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy');
ALTER TYPE mood ADD VALUE 'meh' BEFORE 'ok';
COMMENT ON TYPE mood IS 'how it feels';
CREATE TYPE sales.status AS ENUM ('new', 'paid');
CREATE DOMAIN posint AS integer NOT NULL CHECK (VALUE > 0);
CREATE DOMAIN sales.code AS varchar(8) DEFAULT 'NONE';
\dT
\dT+
\dT sales.*
\dT mood
\dD
\df
\df+
SELECT t.typname, e.enumlabel, e.enumsortorder
  FROM pg_enum e JOIN pg_type t ON t.oid = e.enumtypid ORDER BY 1, 3;
-- what pg_dump reads besides
SELECT acldefault('r', 10), acldefault('s', 10), acldefault('n', 10),
       acldefault('T', 10), acldefault('d', 10), acldefault('c', 10);
SELECT 'pg_class'::regclass::oid, 'pg_catalog.pg_type'::regclass::oid,
       'pg_catalog'::regnamespace::oid, 'public'::regnamespace::oid;
SELECT c.relname, d.refobjsubid, d.deptype
  FROM pg_depend d JOIN pg_class c ON c.oid = d.objid
 WHERE d.classid = 'pg_class'::regclass AND c.relkind = 'S'
   AND d.refclassid = 'pg_catalog.pg_class'::pg_catalog.regclass
   AND d.deptype IN ('a', 'i') ORDER BY 1;
SELECT name, setting FROM pg_settings WHERE name IN ('DateStyle', 'search_path') ORDER BY 1;
SELECT typname[0], typname[1] FROM pg_type WHERE typname = 'mood';
SELECT option_name, option_value
  FROM pg_options_to_table('{fillfactor=70,autovacuum_enabled=false}'::text[]);
SELECT count(*) FROM pg_options_to_table(NULL);
SET search_path = '';
SELECT a.attname, pg_catalog.pg_get_expr(d.adbin, d.adrelid)
  FROM pg_catalog.pg_attrdef d JOIN pg_catalog.pg_attribute a
    ON a.attrelid = d.adrelid AND a.attnum = d.adnum
 WHERE d.adrelid = 'public.orders'::pg_catalog.regclass ORDER BY 1;
SELECT pg_catalog.format_type(t.oid, NULL) FROM pg_catalog.pg_type t
 WHERE t.typname IN ('mood', '_mood', 'status') ORDER BY 1;
RESET search_path;
-- pg_index.indkey is an int2vector: printed "2 1", an array counted from 0
SELECT c.relname, i.indkey, i.indkey::varchar, i.indkey[0], i.indkey[1],
       i.indkey::int2[], array_length(i.indkey, 1)
  FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
 WHERE c.relname = 'orders_cust_note_idx';
SELECT a.attname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
  JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
 WHERE c.relname = 'orders_cust_note_idx' ORDER BY 1;
SELECT k FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid,
       unnest(i.indkey) k WHERE c.relname = 'orders_cust_note_idx';
SELECT '3 1 2'::int2vector, ''::int2vector, ' 7 '::int2vector;
SELECT '1 2'::int2[];
SELECT '1 x'::int2vector;
SELECT '1 2x 3'::int2vector;
SELECT '1 99999'::int2vector;
-- constraint OIDs stay distinct past 64 constraints on a table
CREATE TABLE many (v int);
SELECT format('ALTER TABLE many ADD CONSTRAINT many_%s CHECK (v <> %s)', g, g)
  FROM generate_series(1, 70) g \gexec
SELECT count(*), count(DISTINCT c.oid), count(DISTINCT c.conname)
  FROM pg_constraint c JOIN pg_class r ON r.oid = c.conrelid
 WHERE r.relname IN ('many', 'orders', 'customers');
SELECT c.conname FROM pg_constraint c
 WHERE c.oid = (SELECT oid FROM pg_constraint WHERE conname = 'many_65');
DROP TABLE many;
BEGIN;
LOCK TABLE orders IN ACCESS SHARE MODE;
LOCK TABLE nosuch IN ACCESS SHARE MODE;
ROLLBACK;
LOCK TABLE orders IN ACCESS SHARE MODE;
-- Object kinds Kova has none of, listed empty as PostgreSQL lists a
-- database without them (comments, operators, conversions, extended
-- statistics, user mappings), and tablespaces and collations.
\dd
\do
\dc
\dX
\deu
\db
\dO
\c postgres
DROP DATABASE regress_describe_db;
