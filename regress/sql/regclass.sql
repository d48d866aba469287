-- regclass literals: how PostgreSQL reads a relation name
CREATE TABLE rt (a int);
CREATE TABLE "Mixed" (b int);
CREATE SCHEMA regclass_s;
CREATE TABLE regclass_s.st (c int);
SELECT 'rt'::regclass;
SELECT 'rt'::regclass::text;
SELECT 'public.rt'::regclass;
SELECT ' rt '::regclass;
SELECT 'Mixed'::regclass;
SELECT '"Mixed"'::regclass;
SELECT '"Mixed"'::regclass::text;
SELECT 'postgres.public.rt'::regclass;
SELECT 'regclass_s.st'::regclass;
SELECT 'regclass_s.st'::regclass::text;
SELECT 'pg_class'::regclass;
SELECT 'pg_class'::regclass::text;
SELECT 'pg_catalog.pg_class'::regclass;
SELECT 'pg_catalog.pg_class'::regclass::oid;
SELECT 'pg_class'::regclass::oid;
SELECT 'pg_class'::regclass = 'pg_catalog.pg_class'::regclass;
SELECT 'rt'::regclass = 'public.rt'::regclass;
-- errors
SELECT 'missing'::regclass;
SELECT 'missing'::regclass::text;
SELECT 1 AS x, 'missing'::regclass AS y;
SELECT 'nos.x'::regclass;
SELECT 'public.missing'::regclass;
SELECT 'a.b.c'::regclass;
SELECT 'a.b.c.d'::regclass;
SELECT ''::regclass;
SELECT '"Mixed'::regclass;
SELECT 'rt.'::regclass;
SELECT '"rt"'::regclass;
SELECT '"Rt"'::regclass;
SELECT '"RT"'::regclass;
-- to_regclass returns NULL for what does not exist
SELECT to_regclass('rt');
SELECT to_regclass('missing');
SELECT to_regclass('missing') IS NULL AS is_null;
SELECT to_regclass('"Mixed"');
SELECT to_regclass('pg_class');
SELECT to_regclass('nos.x') IS NULL AS is_null;
DROP TABLE rt;
DROP TABLE "Mixed";
DROP SCHEMA regclass_s CASCADE;
-- in a query over the catalog
CREATE TABLE rt2 (a int);
SELECT relname FROM pg_class WHERE oid = 'rt2'::regclass;
SELECT 'rt2'::regclass::oid = (SELECT oid FROM pg_class WHERE relname = 'rt2') AS same;
SELECT 'pg_catalog.pg_class'::regclass::oid::regclass;
SELECT to_regclass('rt2')::oid = 'rt2'::regclass::oid AS same;
DROP TABLE rt2;
-- to_regclass still rejects what is not a name
SELECT to_regclass('');
SELECT to_regclass('a.b.c');
SELECT to_regclass('a.b.c.d');
SELECT to_regclass(' "Mixed" ');
-- an oid in an array of regclass values
CREATE TABLE rt3 (a int);
SELECT relname FROM pg_class WHERE oid = ANY (ARRAY['rt3'::regclass]);
SELECT relname FROM pg_class WHERE oid IN ('rt3'::regclass, 'pg_class'::regclass) AND relname = 'rt3';
SELECT count(*) FROM pg_class WHERE oid <> ALL (ARRAY['rt3'::regclass]) AND relname = 'rt3';
DROP TABLE rt3;
-- OIDs
SELECT '999999999999999999999999'::regclass;
SELECT '4294967296'::regclass;
SELECT '-'::regclass;
SELECT '0'::regclass;
SELECT '1259'::regclass;
SELECT 0::oid::regclass;
SELECT '-'::regclass::oid;
SELECT to_regclass('1259') IS NULL AS is_null;
SELECT to_regclass('-') IS NULL AS is_null;
