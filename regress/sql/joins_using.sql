--
-- JOIN ... USING and NATURAL JOIN: merged columns (once, first in *),
-- INNER/LEFT/RIGHT/FULL, qualified and unqualified references, the USING
-- alias, join aliases, common types, chains, and the errors
--
-- (tables of this file are named ju_*: tests of a group share the database)
--
CREATE TABLE ju_a (id integer, x text, k integer);
CREATE TABLE ju_b (id integer, y text, k integer);
CREATE TABLE ju_c (id bigint, z text);
CREATE TABLE ju_empty (id integer, w text);
INSERT INTO ju_a VALUES (1, 'a1', 10), (2, 'a2', 20), (3, 'a3', NULL), (NULL, 'anull', 40);
INSERT INTO ju_b VALUES (2, 'b2', 20), (3, 'b3', 30), (4, 'b4', NULL), (NULL, 'bnull', 40), (2, 'b2bis', 21);
INSERT INTO ju_c VALUES (1, 'c1'), (2, 'c2'), (4, 'c4'), (5, 'c5');
-- the USING column appears once, first
SELECT * FROM ju_a JOIN ju_b USING (id) ORDER BY id, y;
SELECT * FROM ju_a INNER JOIN ju_b USING (id, k) ORDER BY id;
SELECT * FROM ju_a LEFT JOIN ju_b USING (id) ORDER BY id, y;
SELECT * FROM ju_a RIGHT JOIN ju_b USING (id) ORDER BY id, y;
SELECT * FROM ju_a FULL JOIN ju_b USING (id) ORDER BY id, x, y;
SELECT * FROM ju_a LEFT OUTER JOIN ju_b USING (k) ORDER BY k, x;
-- unqualified and qualified references
SELECT id, x, y FROM ju_a JOIN ju_b USING (id) ORDER BY 1, 3;
SELECT ju_a.id AS aid, ju_b.id AS bid, id FROM ju_a FULL JOIN ju_b USING (id) ORDER BY 3, 1, 2;
SELECT ju_a.id, ju_b.id, id FROM ju_a LEFT JOIN ju_b USING (id) ORDER BY 1;
SELECT ju_a.id, ju_b.id, id FROM ju_a RIGHT JOIN ju_b USING (id) ORDER BY 2, 3;
SELECT a.*, b.y FROM ju_a a JOIN ju_b b USING (id) ORDER BY a.id, b.y;
SELECT b.*, a.x FROM ju_a a JOIN ju_b b USING (id) ORDER BY id, b.y;
SELECT id FROM ju_a JOIN ju_b USING (id) WHERE id > 2;
SELECT id, count(*) FROM ju_a FULL JOIN ju_b USING (id) GROUP BY id ORDER BY id;
SELECT k FROM ju_a JOIN ju_b USING (id) ORDER BY k;
-- NATURAL
SELECT * FROM ju_a NATURAL JOIN ju_b ORDER BY id;
SELECT * FROM ju_a NATURAL LEFT JOIN ju_b ORDER BY id, x;
SELECT * FROM ju_a NATURAL FULL JOIN ju_b ORDER BY id, k, x, y;
SELECT * FROM ju_a NATURAL RIGHT JOIN ju_b ORDER BY id, k;
SELECT * FROM ju_c NATURAL JOIN ju_b ORDER BY id, y;
-- no common column: a cross join
SELECT count(*) FROM ju_a NATURAL JOIN (SELECT 1 AS q) s;
-- the USING alias, join aliases
SELECT j.id, x, y FROM ju_a JOIN ju_b USING (id) AS j ORDER BY 1, 3;
SELECT j.* FROM ju_a JOIN ju_b USING (id) AS j ORDER BY 1;
SELECT j.x FROM ju_a JOIN ju_b USING (id) AS j;
SELECT j.id, j.x, j.y FROM (ju_a JOIN ju_b USING (id)) AS j ORDER BY 1, 3;
SELECT * FROM (ju_a JOIN ju_b USING (id)) AS j (i, xx) ORDER BY 1, 5;
SELECT j.* FROM (ju_a a JOIN ju_b b ON a.id = b.id) AS j ORDER BY 1, 5;
SELECT ju_a.x FROM (ju_a JOIN ju_b USING (id)) AS j;
-- common types: integer and bigint
SELECT * FROM ju_a JOIN ju_c USING (id) ORDER BY id;
SELECT id, pg_typeof(id) FROM ju_a FULL JOIN ju_c USING (id) ORDER BY id;
SELECT * FROM ju_c FULL JOIN ju_a USING (id) ORDER BY id, x;
SELECT * FROM ju_a JOIN (SELECT 2.0 AS id, 'n' AS t) s USING (id);
SELECT * FROM (SELECT 'x'::varchar AS v) p JOIN (SELECT 'x'::text AS v) q USING (v);
-- chains of three tables
SELECT * FROM ju_a JOIN ju_b USING (id) JOIN ju_c USING (id) ORDER BY id, y;
SELECT * FROM ju_a FULL JOIN ju_b USING (id) FULL JOIN ju_c USING (id) ORDER BY id, x, y;
SELECT id, x, y, z FROM ju_a LEFT JOIN ju_b USING (id) LEFT JOIN ju_c USING (id) ORDER BY id, y;
SELECT * FROM ju_a JOIN ju_b ON ju_a.id = ju_b.id JOIN ju_c USING (id) ORDER BY 1, 4;
SELECT * FROM ju_a a JOIN (ju_b b JOIN ju_c c USING (id)) USING (id) ORDER BY id, y;
SELECT * FROM ju_a NATURAL JOIN ju_b NATURAL JOIN ju_c ORDER BY id;
-- empty tables
SELECT * FROM ju_a JOIN ju_empty USING (id);
SELECT * FROM ju_a LEFT JOIN ju_empty USING (id) ORDER BY id;
SELECT * FROM ju_empty FULL JOIN ju_empty e2 USING (id, w);
-- subqueries and views over USING joins
SELECT * FROM (SELECT id, y FROM ju_a JOIN ju_b USING (id)) s ORDER BY 1, 2;
CREATE VIEW ju_v AS SELECT id, x, y FROM ju_a LEFT JOIN ju_b USING (id);
SELECT * FROM ju_v ORDER BY id, y;
SELECT id FROM ju_a WHERE EXISTS (SELECT 1 FROM ju_b JOIN ju_c USING (id) WHERE id = ju_a.id) ORDER BY id;
-- errors
SELECT * FROM ju_a JOIN ju_b USING (nope);
SELECT * FROM ju_a JOIN ju_b USING (y);
SELECT * FROM ju_a JOIN ju_b USING (x);
SELECT * FROM ju_a JOIN ju_b USING (id, id);
SELECT x FROM ju_a JOIN ju_b USING (id) JOIN ju_a a2 USING (id);
SELECT k FROM ju_a JOIN ju_b USING (id);
SELECT id FROM ju_a JOIN ju_b ON true;
SELECT * FROM (ju_a JOIN ju_b USING (id)) JOIN ju_a a2 USING (x) ORDER BY y;
SELECT * FROM ju_a JOIN ju_b USING (id) JOIN ju_a USING (k);
SELECT * FROM ju_a JOIN (SELECT true AS id) s USING (id);
SELECT j.y FROM ju_a JOIN ju_b USING (id) AS j;
SELECT * FROM ju_a a JOIN ju_b b USING (id) JOIN ju_c c USING (k);
DROP VIEW ju_v;
DROP TABLE ju_a, ju_b, ju_c, ju_empty;
