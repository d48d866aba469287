--
-- CREATE TABLE AS and SELECT INTO
--
CREATE TABLE ctas_src (id serial PRIMARY KEY, n numeric(10,2), c char(3),
                       v varchar(5), t text, d date, ts timestamptz,
                       b boolean, i interval, j jsonb);
INSERT INTO ctas_src (n, c, v, t, d, ts, b, i, j) VALUES
  (1.5, 'ab', 'x', 'hello', '2024-02-29', '2024-01-01 10:00+02', true,
   '1 day 2 hours', '{"a": [1, 2]}'),
  (2, 'c', NULL, 'w', NULL, NULL, false, NULL, 'null'),
  (-3.25, NULL, 'yy', NULL, '1999-12-31', '2000-06-30 23:59:59.5+00', NULL,
   '-3 mons', '[]');
CREATE TABLE ctas_all AS SELECT * FROM ctas_src;
SELECT * FROM ctas_all ORDER BY id;
-- The columns keep their types and modifiers, but not defaults or keys.
INSERT INTO ctas_all (n, c, v) VALUES (1.234, 'abc', 'abcde');
INSERT INTO ctas_all (c) VALUES ('abcd');
INSERT INTO ctas_all (v) VALUES ('abcdef');
SELECT id, n, c, v FROM ctas_all WHERE id IS NULL;
INSERT INTO ctas_all (id) VALUES (1);
SELECT id, count(*) FROM ctas_all GROUP BY id ORDER BY id;
-- Column names from a list, the rest from the query.
CREATE TABLE ctas_names (a, b) AS
  SELECT id, t, upper(t) AS shout, id * 10 FROM ctas_src WHERE id > 1;
SELECT * FROM ctas_names ORDER BY a;
-- Untyped literals become text; expressions keep their types.
CREATE TABLE ctas_types AS
  SELECT 'x' AS lit, 1::bigint AS big, 2.5 AS num, 1.5::float8 AS dbl,
         now()::date - now()::date AS days, true AS flag;
INSERT INTO ctas_types VALUES ('y', 9223372036854775807, 1.25, 1e300, 3, false);
INSERT INTO ctas_types (days) VALUES (2147483648);
SELECT * FROM ctas_types ORDER BY lit;
-- WITH NO DATA: the table only.
CREATE TABLE ctas_empty AS SELECT id, t FROM ctas_src WITH NO DATA;
SELECT count(*) FROM ctas_empty;
INSERT INTO ctas_empty VALUES (7, 'seven');
SELECT * FROM ctas_empty;
-- Joins, grouping, ordering and limits in the query.
CREATE TABLE ctas_join AS
  SELECT a.id, b.t, count(*) AS n
  FROM ctas_src a JOIN ctas_src b ON a.id >= b.id
  GROUP BY a.id, b.t ORDER BY a.id, b.t LIMIT 4;
SELECT * FROM ctas_join ORDER BY id, t;
CREATE TABLE ctas_values AS VALUES (1, 'one'), (2, 'two');
SELECT * FROM ctas_values ORDER BY column1;
-- Schemas, storage parameters and IF NOT EXISTS.
CREATE SCHEMA ctas_s;
CREATE TABLE ctas_s.copy WITH (fillfactor = 70) AS SELECT id FROM ctas_src;
SELECT * FROM ctas_s.copy ORDER BY id;
CREATE TABLE IF NOT EXISTS ctas_s.copy AS SELECT 1;
SELECT count(*) FROM ctas_s.copy;
-- SELECT INTO is CREATE TABLE AS.
SELECT id, t INTO ctas_into FROM ctas_src WHERE t IS NOT NULL;
SELECT * FROM ctas_into ORDER BY id;
SELECT 1 AS one INTO TABLE ctas_into2;
SELECT * FROM ctas_into2;
-- Transactional, like every DDL statement.
BEGIN;
CREATE TABLE ctas_tx AS SELECT id FROM ctas_src;
SELECT sum(id) FROM ctas_tx;
ROLLBACK;
SELECT * FROM ctas_tx;
-- Errors.
CREATE TABLE ctas_all AS SELECT 1;
CREATE TABLE ctas_bad (a, b, c) AS SELECT 1, 2;
CREATE TABLE ctas_bad AS SELECT 1, 2;
CREATE TABLE ctas_bad AS SELECT 1 AS x, 2 AS x;
CREATE TABLE ctas_bad AS SELECT nope FROM ctas_src;
CREATE TABLE ctas_bad AS SELECT 1 / 0 AS x FROM ctas_src;
CREATE TABLE ctas_bad WITH (nonsense = 1) AS SELECT 1;
CREATE TABLE nope.ctas_bad AS SELECT 1;
SELECT * FROM ctas_bad;
DROP TABLE ctas_src, ctas_all, ctas_names, ctas_types, ctas_empty, ctas_join,
  ctas_values, ctas_into, ctas_into2;
DROP SCHEMA ctas_s CASCADE;
