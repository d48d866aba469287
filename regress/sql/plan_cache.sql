--
-- Simple-query translations kept by the shape of the text: the same
-- statement with other literal values reuses a translation, and nothing that
-- changes what a statement means (DDL, a same-named table, search_path,
-- settings, prepared statements across DDL) may run a stale one.
--
CREATE TABLE pc (id int PRIMARY KEY, v text, n numeric, t timestamptz);
INSERT INTO pc VALUES (1, 'one', 1.5, '2024-01-01 00:30:00+00'),
  (2, 'two', 2.25, '2024-01-01 12:00:00+00'), (3, 'three', NULL, NULL);
-- The same shape with other values; then other kinds of number.
SELECT v FROM pc WHERE id = 1;
SELECT v FROM pc WHERE id = 2;
SELECT v FROM pc WHERE id = 3;
SELECT v FROM pc WHERE id = 004;
SELECT v FROM pc WHERE id = 2147483648;
SELECT v FROM pc WHERE id = 2.0;
SELECT v FROM pc WHERE id = '3';
SELECT v FROM pc WHERE id = 'x';
SELECT v FROM pc WHERE id = '99999999999';
SELECT v FROM pc WHERE v = 'two';
SELECT v FROM pc WHERE v = 'it''s';
SELECT v FROM pc WHERE v = E'two';
SELECT id, v || '!' FROM pc WHERE n > 2 ORDER BY id;
SELECT id, v || '?' FROM pc WHERE n > 1 ORDER BY id;
SELECT id, v || '?' FROM pc WHERE n > 1.75 ORDER BY id;
-- Two literals with equal values share a slot; other values must not.
SELECT id + 1 AS x FROM pc GROUP BY id + 1 ORDER BY 1;
SELECT id + 2 AS x FROM pc GROUP BY id + 2 ORDER BY 1;
SELECT id + 2 AS x FROM pc GROUP BY id + 3 ORDER BY 1;
SELECT id + 2 AS x, id + 3 AS y FROM pc WHERE id < 3 ORDER BY 1;
SELECT id + 5 AS x, id + 5 AS y FROM pc WHERE id < 3 ORDER BY 1;
-- Positions and limits.
SELECT id, v FROM pc ORDER BY 1 LIMIT 2;
SELECT id, v FROM pc ORDER BY 2 LIMIT 2;
SELECT id, v FROM pc ORDER BY 2 LIMIT 1;
SELECT id, v FROM pc ORDER BY 2 LIMIT 1 OFFSET 1;
SELECT id, v FROM pc ORDER BY 2 LIMIT -1;
-- A typmod and casts are part of the statement.
SELECT v::varchar(2) FROM pc WHERE id = 1;
SELECT v::varchar(3) FROM pc WHERE id = 1;
SELECT 'abcd'::varchar(2) AS c FROM pc WHERE id = 1;
SELECT 'abcd'::varchar(3) AS c FROM pc WHERE id = 1;
SELECT n::numeric(5, 1) FROM pc WHERE id = 2;
SELECT n::numeric(5, 2) FROM pc WHERE id = 2;
-- Settings: the same text under another TimeZone or DateStyle.
SET TimeZone = 'UTC';
SELECT id FROM pc WHERE t < '2024-01-01 06:00' ORDER BY id;
SET TimeZone = 'Asia/Tokyo';
SELECT id FROM pc WHERE t < '2024-01-01 06:00' ORDER BY id;
SELECT id FROM pc WHERE t < '2024-01-01 10:00' ORDER BY id;
RESET TimeZone;
SELECT count(*) FROM pc WHERE t::date + 20 > '01/02/2024';
SELECT '01/02/2024'::date - t::date AS days FROM pc WHERE id = 2;
SET DateStyle = 'ISO, DMY';
SELECT count(*) FROM pc WHERE t::date + 20 > '01/02/2024';
SELECT '01/02/2024'::date - t::date AS days FROM pc WHERE id = 2;
RESET DateStyle;
BEGIN;
SET LOCAL TimeZone = 'UTC';
SELECT id FROM pc WHERE t < '2024-01-01 06:00' ORDER BY id;
ROLLBACK;
SELECT id FROM pc WHERE t < '2024-01-01 06:00' ORDER BY id;
-- DDL: a renamed column, a column added under the old name, a column whose
-- type changes, a table dropped and created again under the same name.
SELECT v FROM pc WHERE id = 1;
ALTER TABLE pc RENAME COLUMN v TO w;
SELECT v FROM pc WHERE id = 1;
ALTER TABLE pc ADD COLUMN v int DEFAULT 7;
SELECT v FROM pc WHERE id = 1;
ALTER TABLE pc ALTER COLUMN v TYPE text;
SELECT v FROM pc WHERE id = 2;
SELECT pg_typeof(v) FROM pc WHERE id = 2;
DROP TABLE pc;
SELECT v FROM pc WHERE id = 1;
CREATE TABLE pc (id int, v numeric);
INSERT INTO pc VALUES (1, 10.5), (2, 20);
SELECT v FROM pc WHERE id = 1;
SELECT v FROM pc WHERE id = 2;
-- search_path: the same text names another table.
CREATE SCHEMA pc_other;
CREATE TABLE pc_other.pc (id int, v text);
INSERT INTO pc_other.pc VALUES (1, 'other');
SELECT v FROM pc WHERE id = 1;
SET search_path = pc_other, public;
SELECT v FROM pc WHERE id = 1;
RESET search_path;
SELECT v FROM pc WHERE id = 1;
-- A temporary table hides the permanent one, then goes away.
CREATE TEMP TABLE pc (id int, v text);
INSERT INTO pc VALUES (1, 'temporary');
SELECT v FROM pc WHERE id = 1;
DROP TABLE pc;
SELECT v FROM pc WHERE id = 1;
-- Inside a block: DDL, then a rollback of it.
BEGIN;
SELECT v FROM pc WHERE id = 2;
ALTER TABLE pc ADD COLUMN extra int DEFAULT 5;
SELECT v, extra FROM pc WHERE id = 2;
SELECT v FROM pc WHERE id = 1;
ROLLBACK;
SELECT v FROM pc WHERE id = 1;
SELECT v, extra FROM pc WHERE id = 2;
-- A prepared statement across DDL.
PREPARE pc_get (int) AS SELECT v FROM pc WHERE id = $1;
EXECUTE pc_get(1);
ALTER TABLE pc RENAME COLUMN v TO v2;
ALTER TABLE pc ADD COLUMN v numeric DEFAULT 3;
EXECUTE pc_get(1);
ALTER TABLE pc DROP COLUMN v;
EXECUTE pc_get(1);
ALTER TABLE pc ADD COLUMN v int;
UPDATE pc SET v = 5 WHERE id = 1;
EXECUTE pc_get(1);
DEALLOCATE pc_get;
-- A prepared statement looks its names up again when search_path changes
-- (SELECT, INSERT, UPDATE, DELETE), and only then.
CREATE SCHEMA pc_a;
CREATE SCHEMA pc_b;
CREATE TABLE pc_a.pt (n int, s text);
CREATE TABLE pc_b.pt (n int, s text);
INSERT INTO pc_a.pt VALUES (1, 'a');
INSERT INTO pc_b.pt VALUES (2, 'b');
SET search_path = pc_a;
PREPARE pc_sel AS SELECT n, s FROM pt;
PREPARE pc_ins (int) AS INSERT INTO pt VALUES ($1, 'ins') RETURNING s;
PREPARE pc_upd AS UPDATE pt SET s = s || '!' RETURNING n, s;
PREPARE pc_del (int) AS DELETE FROM pt WHERE n = $1;
EXECUTE pc_sel;
SET search_path = pc_b, public;
EXECUTE pc_sel;
EXECUTE pc_ins(20);
EXECUTE pc_upd;
EXECUTE pc_del(2);
SET work_mem = '8MB';
EXECUTE pc_sel;
RESET search_path;
EXECUTE pc_sel;
SET search_path = pc_a;
EXECUTE pc_sel;
SELECT 'a' AS schema, * FROM pc_a.pt UNION ALL SELECT 'b', * FROM pc_b.pt ORDER BY 1, 2;
ALTER TABLE pc_b.pt ALTER COLUMN n TYPE text;
SET search_path = pc_b;
EXECUTE pc_sel;
RESET search_path;
RESET work_mem;
DEALLOCATE ALL;
DROP SCHEMA pc_a CASCADE;
DROP SCHEMA pc_b CASCADE;
-- Casts that read TimeZone or DateStyle run when a prepared statement
-- executes; a literal's input is read when it is prepared.
CREATE TABLE pc_tz (v timestamptz);
INSERT INTO pc_tz VALUES ('2020-01-01 00:00+00');
SET TimeZone = 'UTC';
PREPARE pc_tzq AS SELECT v::text, '2020-06-01 12:00'::timestamptz::text AS lit,
  '2020-06-01'::date::text AS d, '03-04-2020'::text::date AS parsed FROM pc_tz;
EXECUTE pc_tzq;
SET TimeZone = 'Asia/Tokyo';
SET DateStyle = 'SQL, DMY';
EXECUTE pc_tzq;
RESET TimeZone;
RESET DateStyle;
DEALLOCATE pc_tzq;
DROP TABLE pc_tz;
-- Errors at run time keep their positions in the text that ran.
SELECT 1 / (id - 1) FROM pc WHERE id = 1;
SELECT 1 / (id - 1) FROM pc WHERE id = 2;
SELECT id FROM pc WHERE id = 1 AND nosuch = 'x';
SELECT id FROM pc WHERE id = 11111 AND nosuch = 'x';
DROP TABLE pc;
DROP TABLE pc_other.pc;
DROP SCHEMA pc_other;
