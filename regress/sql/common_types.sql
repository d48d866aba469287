-- The common type of UNION/INTERSECT/EXCEPT columns, VALUES columns, CASE,
-- COALESCE and GREATEST/LEAST (PostgreSQL's select_common_type): the
-- category's preferred type or the type the others convert to implicitly;
-- untyped literals and NULLs take the other inputs' type.
CREATE TABLE ct (i int, s smallint, b bigint, n numeric, f float8, d date,
                 ts timestamp, tz timestamptz, v varchar(3), t text, iv interval);
INSERT INTO ct VALUES (1, 2, 3, 1.0, 1.5, '2020-01-01', '2020-01-01 10:00',
                       '2020-01-01 10:00+00', 'ab', 'ab', '1 day');
SET TimeZone = 'UTC';
-- set operations
SELECT i FROM ct UNION SELECT n FROM ct;
SELECT n FROM ct UNION SELECT i FROM ct;
SELECT s FROM ct UNION ALL SELECT b FROM ct ORDER BY 1;
SELECT pg_typeof(x) FROM (SELECT s AS x FROM ct UNION SELECT b FROM ct) u LIMIT 1;
SELECT i FROM ct UNION SELECT f FROM ct ORDER BY 1;
SELECT d FROM ct UNION SELECT ts FROM ct ORDER BY 1;
SELECT ts FROM ct UNION ALL SELECT tz FROM ct ORDER BY 1;
SELECT pg_typeof(x) FROM (SELECT v AS x FROM ct UNION SELECT t FROM ct) u;
SELECT pg_typeof(x) FROM (SELECT t AS x FROM ct UNION SELECT v FROM ct) u;
SELECT 1 UNION SELECT 1.0;
SELECT 1 AS x UNION SELECT '1' ORDER BY 1;
SELECT '2' AS x UNION SELECT 1 ORDER BY 1;
SELECT NULL AS x UNION SELECT 2 ORDER BY 1;
SELECT i FROM ct UNION ALL SELECT NULL ORDER BY 1;
SELECT NULL AS x UNION ALL SELECT NULL UNION ALL SELECT 'a' ORDER BY 1;
SELECT 'a' AS x UNION SELECT 'b' ORDER BY 1;
SELECT pg_typeof(x) FROM (SELECT 'a' AS x UNION SELECT 'b') u LIMIT 1;
SELECT d FROM ct INTERSECT SELECT '2020-01-01' ORDER BY 1;
SELECT n FROM ct EXCEPT SELECT 1 ORDER BY 1;
SELECT iv FROM ct UNION SELECT '24 hours' ORDER BY 1;
SELECT x FROM (SELECT 1 AS x UNION SELECT 2.5 UNION SELECT NULL) u ORDER BY 1;
-- errors
SELECT i FROM ct UNION SELECT t FROM ct;
SELECT d FROM ct UNION SELECT i FROM ct;
SELECT 'x' AS x UNION SELECT 1;
-- VALUES
SELECT * FROM (VALUES (1), (1.5), (NULL)) v(a) ORDER BY 1;
SELECT * FROM (VALUES ('2020-01-01'::date), ('2020-01-02 10:00'::timestamp)) v(a) ORDER BY 1;
SELECT pg_typeof(a) FROM (VALUES (1::int2), (2::int8)) v(a) LIMIT 1;
SELECT * FROM (VALUES (1, 'a'), (2, NULL)) v(a, b) ORDER BY 1;
SELECT * FROM (VALUES (1), ('x')) v(a);
SELECT * FROM (VALUES (1), (now())) v(a);
-- CASE (its ELSE counts first), COALESCE, GREATEST, LEAST
SELECT CASE WHEN i = 1 THEN 1 ELSE 2.5 END FROM ct;
SELECT pg_typeof(CASE WHEN true THEN 'a'::varchar ELSE 'b'::text END);
SELECT pg_typeof(CASE WHEN true THEN 'a'::text ELSE 'b'::varchar END);
SELECT CASE WHEN false THEN d ELSE tz END FROM ct;
SELECT CASE WHEN true THEN 1 ELSE 'x'::text END;
SELECT CASE WHEN true THEN 1 END, CASE WHEN true THEN NULL ELSE 2 END;
SELECT COALESCE(1, 2.5), COALESCE(NULL, 'x'), pg_typeof(COALESCE(1::int2, 2::int8));
SELECT COALESCE(d, ts) FROM ct;
SELECT COALESCE(i, t) FROM ct;
SELECT GREATEST(1, 2.5), LEAST('a'::varchar, 'b'::text), GREATEST(d, ts) FROM ct;
SELECT pg_typeof(GREATEST(s, b)), pg_typeof(LEAST(f, n)) FROM ct;
SELECT GREATEST(i, d) FROM ct;
DROP TABLE ct;
