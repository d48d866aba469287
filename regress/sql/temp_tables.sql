--
-- Temporary tables and search_path
--
CREATE SCHEMA tmp_app;
create table t (a int);
insert into t values (1);
create temp table t (a int, b serial);
insert into t (a) values (10), (20);
select * from t order by a;
select * from public.t;
select * from pg_temp.t order by a;
create temp table tt (x text) on commit delete rows;
begin;
insert into tt values ('gone');
select * from tt;
commit;
select count(*) from tt;
begin;
create temp table td (x int) on commit drop;
insert into td values (1);
select * from td;
commit;
select * from td;
create table tmp_app.t (c text) on commit drop;
create temp table tmp_app.x (c int);
set search_path = tmp_app, public;
select current_schema(), current_schemas(false);
create table u (z int);
select * from tmp_app.u;
insert into tmp_app.t values (1);
select * from t;
set search_path = pg_temp, public;
select * from t;
reset search_path;
drop table t;
select * from t;
create temp sequence ts;
select nextval('ts'), nextval('ts');
create temp view tv as select 1 as one;
select * from tv;
create temp table ctas_t as select 5 as five;
select * from ctas_t;
set search_path = nope;
select current_schema(), current_schemas(false);
create table v (a int);
reset search_path;
drop table tmp_app.u;
-- A new session: the temporary objects of the last one are gone.
\c
SELECT * FROM t;
SELECT * FROM tt;
SELECT nextval('ts');
CREATE TEMP TABLE t (n int PRIMARY KEY);
INSERT INTO t VALUES (1), (1);
INSERT INTO t VALUES (2);
UPDATE t SET n = n + 10 RETURNING *;
DELETE FROM t WHERE n = 12;
SELECT count(*) FROM t;
-- Keys and foreign keys between temporary tables.
CREATE TEMP TABLE tparent (id int PRIMARY KEY);
CREATE TEMP TABLE tchild (id int REFERENCES tparent);
INSERT INTO tchild VALUES (1);
INSERT INTO tparent VALUES (1);
INSERT INTO tchild VALUES (1);
DROP TABLE tchild, tparent;
DROP SCHEMA tmp_app CASCADE;
DROP TABLE public.t;
