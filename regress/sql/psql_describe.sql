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
\di+
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
\c postgres
DROP DATABASE regress_describe_db;
