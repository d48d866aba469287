-- kova-specific
-- What Kova does not support with grouping sets fails with 0A000 (the
-- same statements succeed in PostgreSQL).
\set VERBOSITY verbose
CREATE TABLE gsu (a int, b int);
INSERT INTO gsu VALUES (1, 10), (1, 20), (2, 30);
-- GROUPING of an enclosing query's columns.
SELECT a, (SELECT grouping(gsu.a)) FROM gsu GROUP BY ROLLUP (a);
-- An aggregate in a subquery over the grouped query's columns (PostgreSQL
-- may compute it as the enclosing query's aggregate).
SELECT a, (SELECT sum(gsu.b)) FROM gsu GROUP BY ROLLUP (a);
-- Subqueries as grouping expressions.
SELECT (SELECT max(b) FROM gsu), count(*) FROM gsu
GROUP BY ROLLUP ((SELECT max(b) FROM gsu));
SELECT a IN (SELECT b FROM gsu) AS x, count(*) FROM gsu GROUP BY CUBE (1);
-- Volatile functions: each set's SELECT would call them again.
SELECT a, count(*) FROM gsu WHERE random() < 2 GROUP BY ROLLUP (a);
SELECT a, sum(b + random()) FROM gsu GROUP BY CUBE (a);
-- Set-returning functions in the select list.
SELECT a, unnest(ARRAY[1, 2]), count(*) FROM gsu GROUP BY ROLLUP (a);
DROP TABLE gsu;
