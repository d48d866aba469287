--
-- WITH queries in front of INSERT, UPDATE and DELETE
--
CREATE TABLE a (id int PRIMARY KEY, v int);
INSERT INTO a VALUES (1, 10), (2, 20), (3, 30);
CREATE TABLE b (id int PRIMARY KEY, a_id int, w int);
INSERT INTO b VALUES (1, 1, 5), (2, 1, 7), (3, 2, 9);
-- INSERT ... SELECT from WITH queries, one reading another.
WITH x AS (SELECT 100 AS id, 1 AS a_id, 1 AS w)
INSERT INTO b SELECT * FROM x;
WITH x AS (SELECT 101 AS id, 2 AS a_id, 2 AS w),
     y AS (SELECT * FROM x UNION ALL SELECT id + 1, a_id, w FROM x)
INSERT INTO b SELECT * FROM y ORDER BY id RETURNING *;
-- VALUES whose subqueries read a WITH query.
WITH x AS (SELECT max(id) AS m FROM b)
INSERT INTO b VALUES ((SELECT m + 1 FROM x), 3, 3) RETURNING *;
-- A serial column still numbers the rows a WITH query feeds.
CREATE TABLE c (id serial PRIMARY KEY, a_id int, w int);
WITH src AS (SELECT a_id, w * 10 AS w FROM b WHERE id <= 2)
INSERT INTO c (a_id, w) SELECT a_id, w FROM src ORDER BY w RETURNING *;
WITH src AS (SELECT a_id, w FROM b WHERE id = 3)
INSERT INTO c (a_id, w) SELECT * FROM src RETURNING *;
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3)
INSERT INTO b SELECT n + 200, n, n FROM r;
SELECT * FROM b ORDER BY id;
-- UPDATE ... FROM a WITH query, and a WITH query in SET and WHERE.
WITH x AS (SELECT 1 AS k)
UPDATE b SET w = w + 1 FROM x WHERE b.a_id = x.k AND b.id < 100 RETURNING b.*;
WITH x AS (SELECT 2 AS k)
UPDATE b SET w = (SELECT k * 100 FROM x) WHERE a_id = 2 AND id < 100
  RETURNING *;
WITH big AS (SELECT id FROM a WHERE v >= 30)
UPDATE b SET w = 0 WHERE a_id IN (SELECT id FROM big) RETURNING id, w;
-- DELETE ... USING a WITH query, and one in WHERE.
WITH x AS (SELECT 1 AS k)
DELETE FROM b USING x WHERE b.a_id = x.k AND b.id > 99 RETURNING b.id;
WITH x AS (SELECT id FROM a WHERE v = 20)
DELETE FROM b WHERE a_id IN (SELECT id FROM x) AND id < 100 RETURNING id;
SELECT * FROM b ORDER BY id;
-- Parameters of a prepared statement reach the WITH query.
PREPARE p(int) AS
  WITH x AS (SELECT $1 AS k) UPDATE b SET w = -1 FROM x WHERE b.id = x.k
  RETURNING b.*;
EXECUTE p(1);
EXECUTE p(2);
DEALLOCATE p;
-- Errors.
WITH x AS (SELECT 1 AS k) INSERT INTO b SELECT * FROM nosuch;
WITH x AS (SELECT 1 AS k), x AS (SELECT 2) INSERT INTO b SELECT 1, 1, 1;
WITH x AS (SELECT * FROM nosuch) DELETE FROM b;
WITH x AS (SELECT 1 AS k) UPDATE b SET w = 1 FROM y;
SELECT count(*) FROM b;
DROP TABLE a, b, c;
