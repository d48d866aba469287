--
-- Views in dependency checks: DROP TABLE / VIEW / COLUMN / SCHEMA / ROLE
-- and ALTER COLUMN TYPE of what a view reads
--
CREATE TABLE vd_base (id int PRIMARY KEY, name text, price numeric, note text);
INSERT INTO vd_base VALUES (1, 'a', 1.5, 'x'), (2, 'b', 2.5, NULL);
CREATE VIEW vd_names AS SELECT id, name FROM vd_base WHERE id > 0;
CREATE VIEW vd_star AS SELECT * FROM vd_base;
CREATE VIEW vd_nested AS SELECT name FROM vd_names;
CREATE TABLE vd_other (id int, label text);
CREATE VIEW vd_join AS SELECT b.id, o.label FROM vd_base b JOIN vd_other o ON o.id = b.id;
DROP TABLE vd_base;
DROP TABLE vd_other;
DROP VIEW vd_names;
DROP TABLE vd_base RESTRICT;
-- columns: only what a view names stops DROP COLUMN and ALTER ... TYPE
CREATE TABLE vd_cols (a int, b text, c int, d int);
CREATE VIEW vd_ab AS SELECT a, upper(b) AS ub FROM vd_cols WHERE c > 0;
ALTER TABLE vd_cols DROP COLUMN d;
ALTER TABLE vd_cols DROP COLUMN a;
ALTER TABLE vd_cols DROP COLUMN c;
ALTER TABLE vd_cols ALTER COLUMN b TYPE varchar(10);
ALTER TABLE vd_cols ALTER COLUMN c TYPE bigint;
ALTER TABLE vd_cols ADD COLUMN e int;
ALTER TABLE vd_cols ALTER COLUMN e TYPE bigint;
ALTER TABLE vd_cols DROP COLUMN e;
ALTER TABLE vd_cols DROP COLUMN b CASCADE;
SELECT * FROM vd_ab;
SELECT * FROM vd_cols;
CREATE VIEW vd_star2 AS SELECT * FROM vd_cols;
ALTER TABLE vd_cols DROP COLUMN c;
ALTER TABLE vd_cols ALTER COLUMN a TYPE bigint;
DROP VIEW vd_star2;
ALTER TABLE vd_cols ALTER COLUMN a TYPE bigint;
DROP TABLE vd_cols;
-- CASCADE drops the views (and views over them)
DROP TABLE vd_base CASCADE;
SELECT * FROM vd_names;
SELECT * FROM vd_join;
DROP TABLE vd_other;
-- DROP VIEW of a view another view reads
CREATE TABLE vd_t (x int);
CREATE VIEW vd_v1 AS SELECT x FROM vd_t;
CREATE VIEW vd_v2 AS SELECT x + 1 AS y FROM vd_v1;
DROP VIEW vd_v1;
DROP VIEW vd_v1 CASCADE;
DROP TABLE vd_t;
-- a CTE of the same name is no dependency
CREATE TABLE vd_t (x int);
CREATE VIEW vd_cte AS WITH vd_t AS (SELECT 1 AS x) SELECT x FROM vd_t;
DROP TABLE vd_t;
DROP VIEW vd_cte;
-- DROP SCHEMA ... CASCADE lists views of other schemas reading its tables
CREATE SCHEMA vd_s;
CREATE TABLE vd_s.t (id int, v text);
CREATE VIEW vd_s.inner_v AS SELECT id FROM vd_s.t;
CREATE VIEW vd_outer AS SELECT v FROM vd_s.t;
DROP SCHEMA vd_s;
DROP SCHEMA vd_s CASCADE;
SELECT * FROM vd_outer;
-- DROP ROLE of an owner: of views, tables, sequences, types, schemas,
-- databases and of objects in other databases
CREATE ROLE regress_views_owner;
CREATE TABLE vd_owned_t (x int);
CREATE VIEW vd_owned AS SELECT x FROM vd_owned_t;
ALTER VIEW vd_owned OWNER TO regress_views_owner;
DROP ROLE regress_views_owner;
ALTER TABLE vd_owned_t OWNER TO regress_views_owner;
DROP ROLE regress_views_owner;
CREATE SEQUENCE vd_owned_q;
ALTER SEQUENCE vd_owned_q OWNER TO regress_views_owner;
CREATE TYPE vd_owned_e AS ENUM ('a');
ALTER TYPE vd_owned_e OWNER TO regress_views_owner;
CREATE SCHEMA vd_owned_s AUTHORIZATION regress_views_owner;
CREATE DATABASE regress_views_db OWNER regress_views_owner;
DROP ROLE regress_views_owner;
\c regress_views_db
CREATE TABLE elsewhere (x int);
ALTER TABLE elsewhere OWNER TO regress_views_owner;
CREATE VIEW elsewhere_v AS SELECT 1 AS one;
ALTER VIEW elsewhere_v OWNER TO regress_views_owner;
\c postgres
DROP ROLE regress_views_owner;
DROP DATABASE regress_views_db;
DROP SCHEMA vd_owned_s;
DROP TYPE vd_owned_e;
DROP SEQUENCE vd_owned_q;
DROP VIEW vd_owned;
DROP ROLE regress_views_owner;
DROP TABLE vd_owned_t;
DROP ROLE regress_views_owner;
