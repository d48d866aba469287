--
-- WITH RECURSIVE: UNION ALL and UNION, column alias lists, trees and
-- graphs, the non-recursive term's types, INSERT ... SELECT, and the errors
--
-- (tables of this file are named wr_*: tests of a group share the database)
--
CREATE TABLE wr_tree (id integer PRIMARY KEY, parent integer, name text);
INSERT INTO wr_tree VALUES (1, NULL, 'root'), (2, 1, 'a'), (3, 1, 'b'), (4, 2, 'a1'),
    (5, 2, 'a2'), (6, 4, 'a1x'), (7, NULL, 'other'), (8, 7, 'o1');
CREATE TABLE wr_edge (src integer, dst integer);
INSERT INTO wr_edge VALUES (1, 2), (2, 3), (3, 1), (3, 4), (4, 4);
CREATE TABLE wr_out (n integer, label text);
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT * FROM r;
WITH RECURSIVE r AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT sum(n), count(*) FROM r;
WITH RECURSIVE r(n, fact) AS (SELECT 1, 1::bigint UNION ALL SELECT n + 1, fact * (n + 1) FROM r WHERE n < 20)
  SELECT n, fact FROM r ORDER BY n DESC LIMIT 3;
WITH RECURSIVE fib(a, b) AS (SELECT 0::numeric, 1::numeric UNION ALL SELECT b, a + b FROM fib WHERE b < 1000)
  SELECT a FROM fib;
-- trees: depth and path
WITH RECURSIVE sub(id, name, depth, path) AS (
    SELECT id, name, 0, name FROM wr_tree WHERE parent IS NULL
  UNION ALL
    SELECT t.id, t.name, s.depth + 1, s.path || '/' || t.name
      FROM wr_tree t JOIN sub s ON t.parent = s.id
) SELECT * FROM sub ORDER BY path;
WITH RECURSIVE anc AS (
    SELECT id, parent FROM wr_tree WHERE id = 6
  UNION ALL
    SELECT t.id, t.parent FROM anc, wr_tree t WHERE t.id = anc.parent
) SELECT id FROM anc ORDER BY id;
-- UNION discards duplicates, and so ends on cycles
WITH RECURSIVE reach(n) AS (SELECT 1 UNION SELECT e.dst FROM wr_edge e JOIN reach ON e.src = reach.n)
  SELECT n FROM reach ORDER BY n;
WITH RECURSIVE reach(n) AS (SELECT 4 UNION SELECT dst FROM wr_edge, reach WHERE src = n) SELECT * FROM reach;
-- column alias lists and references from the outer query
WITH RECURSIVE r(x, y) AS (SELECT 1, 'a' UNION ALL SELECT x + 1, y || 'b' FROM r WHERE x < 3)
  SELECT r1.x, r2.y FROM r r1 JOIN r r2 ON r1.x = r2.x ORDER BY 1;
WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r WHERE x < 3) SELECT * FROM r AS q(z) ORDER BY z;
WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r WHERE x < 4)
  SELECT x FROM r WHERE x IN (SELECT x * 2 FROM r) ORDER BY x;
SELECT (WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r WHERE x < 10) SELECT sum(x) FROM r);
-- several WITH queries, recursive and not
WITH RECURSIVE lim AS (SELECT 4 AS m), r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r, lim WHERE n < m)
  SELECT * FROM r;
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 2), plain AS (SELECT n * 10 AS t FROM r)
  SELECT * FROM plain ORDER BY t;
-- not recursive at all
WITH RECURSIVE x AS (SELECT 1 AS a UNION SELECT 2) SELECT * FROM x ORDER BY a;
WITH RECURSIVE x AS (SELECT 5 AS a) SELECT * FROM x;
-- empty
WITH RECURSIVE r(n) AS (SELECT id FROM wr_tree WHERE false UNION ALL SELECT n + 1 FROM r) SELECT * FROM r;
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE false) SELECT * FROM r;
-- NULLs
WITH RECURSIVE r(n, v) AS (SELECT 1, NULL::integer UNION ALL SELECT n + 1, v FROM r WHERE n < 3) SELECT * FROM r;
-- the non-recursive term decides the types: integer overflows
WITH RECURSIVE r(n) AS (SELECT 2147483645 UNION ALL SELECT n + 1 FROM r) SELECT * FROM r;
WITH RECURSIVE r(n) AS (SELECT 2147483645::bigint UNION ALL SELECT n + 1 FROM r WHERE n < 2147483649) SELECT * FROM r;
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT n, pg_typeof(n) FROM r;
WITH RECURSIVE r(n) AS (SELECT 1::bigint UNION ALL SELECT (n + 1)::int FROM r WHERE n < 3) SELECT n, pg_typeof(n) FROM r;
WITH RECURSIVE r(f) AS (SELECT 0.5::float8 UNION ALL SELECT f * 2 FROM r WHERE f < 4) SELECT * FROM r;
-- INSERT ... SELECT
INSERT INTO wr_out WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 4) SELECT n, 'n' || n FROM r;
SELECT * FROM wr_out ORDER BY n;
-- errors
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n::bigint + 1 FROM r WHERE n < 3) SELECT * FROM r;
WITH RECURSIVE r(n) AS (SELECT 'a'::varchar UNION ALL SELECT n || 'b' FROM r WHERE length(n) < 3) SELECT * FROM r;
WITH RECURSIVE r(n) AS (SELECT n FROM r UNION ALL SELECT 1) SELECT * FROM r;
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT r1.n FROM r r1, r r2) SELECT * FROM r;
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < (SELECT max(n) FROM r)) SELECT * FROM r;
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT count(*) FROM r) SELECT * FROM r;
WITH RECURSIVE r(n) AS (SELECT n + 1 FROM r) SELECT * FROM r;
WITH RECURSIVE r(n) AS (SELECT 1 INTERSECT SELECT n FROM r) SELECT * FROM r;
WITH RECURSIVE r(n, m) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT * FROM r;
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1, 2 FROM r) SELECT * FROM r;
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT 'x' || n FROM r) SELECT * FROM r;
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r ORDER BY 1) SELECT * FROM r;
WITH RECURSIVE a(n) AS (SELECT 1 UNION ALL SELECT n FROM b), b(n) AS (SELECT 1 UNION ALL SELECT n FROM a) SELECT * FROM a;
DROP TABLE wr_tree, wr_edge, wr_out;
-- the working table on the nullable side of an outer join, FOR UPDATE
create table wr_y (a int);
insert into wr_y select generate_series(1, 10);
with recursive x(n) as (select a from wr_y where a = 1 union all select x.n + 1 from x right join wr_y on x.n = wr_y.a where n < 10) select * from x;
with recursive x(n) as (select a from wr_y where a = 1 union all select x.n + 1 from wr_y left join x on x.n = wr_y.a where n < 10) select * from x;
with recursive x(n) as (select a from wr_y where a = 1 union all select x.n + 1 from x full join wr_y on x.n = wr_y.a where n < 10) select * from x;
with recursive x(n) as (select a from wr_y where a = 1 union all select x.n + 1 from x left join wr_y on x.n = wr_y.a where n < 3) select * from x;
with recursive x(n) as (select a from wr_y where a = 1 union all select x.n + 1 from wr_y right join x on x.n = wr_y.a where n < 3) select * from x;
with recursive x(n) as (select a from wr_y where a = 1 union all select x.n + 1 from (wr_y join wr_y w2 using (a)) left join x on x.n = wr_y.a where n < 3) select * from x;
with recursive x(n) as (select 1 union all select n + 1 from x where n < 3 for update) select * from x;
drop table wr_y;
