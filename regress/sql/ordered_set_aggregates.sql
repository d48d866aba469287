-- Ordered-set aggregates: percentile_cont, percentile_disc and mode, with
-- WITHIN GROUP (ORDER BY ...).
CREATE TABLE os (g int, i int, b bigint, n numeric, r real, d float8,
                 iv interval, t text, v varchar(5), c char(4), dt date);
INSERT INTO os VALUES
  (1, 1, 10, 1.25, 1.5, 1.5, '1 day', 'b', 'bb', 'a', '2024-01-03'),
  (1, 3, 30, 2.5, 2.5, 2.5, '3 hours', 'a', 'aa', 'b', '2024-01-01'),
  (1, 4, 40, 4.125, 4, 4, '1 mon 2 days', 'c', 'cc', 'c', '2024-01-02'),
  (1, 3, 30, 2.5, 2.5, 2.5, '3 hours', 'a', 'aa', 'b', '2024-01-01'),
  (1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  (2, 10, 100, 10, 10, 10, '1 mon', 'z', 'zz', 'zz', '2023-06-01'),
  (2, 20, 200, 20, 20, 20, '2 mons 3 days', 'y', 'yy', 'yy', '2023-05-01'),
  (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  (4, 7, 7, 7, 7, 7, '7 seconds', 'q', 'qq', 'qq', '2020-02-29');
-- percentile_cont over integers, numerics, reals and doubles.
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY i),
       percentile_cont(0.25) WITHIN GROUP (ORDER BY b),
       percentile_cont(0.3) WITHIN GROUP (ORDER BY n),
       percentile_cont(0.75) WITHIN GROUP (ORDER BY r),
       percentile_cont(0.9) WITHIN GROUP (ORDER BY d)
FROM os;
SELECT g, percentile_cont(0.5) WITHIN GROUP (ORDER BY i) AS median,
       percentile_cont(0) WITHIN GROUP (ORDER BY n) AS lo,
       percentile_cont(1) WITHIN GROUP (ORDER BY d) AS hi
FROM os GROUP BY g ORDER BY g;
SELECT pg_typeof(a), pg_typeof(b), pg_typeof(c), pg_typeof(d), pg_typeof(e)
FROM (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY i) a,
             percentile_cont(0.5) WITHIN GROUP (ORDER BY n) b,
             percentile_cont(0.5) WITHIN GROUP (ORDER BY iv) c,
             percentile_cont(ARRAY[0.5]) WITHIN GROUP (ORDER BY i) d,
             percentile_cont(ARRAY[0.5]) WITHIN GROUP (ORDER BY iv) e
      FROM os) s;
-- percentile_cont over intervals.
SELECT g, percentile_cont(0.5) WITHIN GROUP (ORDER BY iv),
       percentile_cont(0.1) WITHIN GROUP (ORDER BY iv)
FROM os GROUP BY g ORDER BY g;
SELECT percentile_cont(0.4) WITHIN GROUP (ORDER BY iv) FROM os;
-- DESC ordering.
SELECT percentile_cont(0.25) WITHIN GROUP (ORDER BY i DESC),
       percentile_cont(0.25) WITHIN GROUP (ORDER BY i),
       percentile_disc(0.25) WITHIN GROUP (ORDER BY t DESC),
       percentile_disc(0.25) WITHIN GROUP (ORDER BY t),
       percentile_cont(0.2) WITHIN GROUP (ORDER BY iv DESC)
FROM os;
SELECT percentile_cont(0.25) WITHIN GROUP (ORDER BY i USING >),
       percentile_disc(0.25) WITHIN GROUP (ORDER BY i USING <),
       percentile_disc(0.25) WITHIN GROUP (ORDER BY i NULLS FIRST)
FROM os;
-- percentile_disc over any sortable type.
SELECT g, percentile_disc(0.5) WITHIN GROUP (ORDER BY i) AS i,
       percentile_disc(0.5) WITHIN GROUP (ORDER BY n) AS n,
       percentile_disc(0.5) WITHIN GROUP (ORDER BY d) AS d,
       percentile_disc(0.5) WITHIN GROUP (ORDER BY iv) AS iv,
       percentile_disc(0.5) WITHIN GROUP (ORDER BY t) AS t,
       percentile_disc(0.5) WITHIN GROUP (ORDER BY v) AS v,
       percentile_disc(0.5) WITHIN GROUP (ORDER BY dt) AS dt
FROM os GROUP BY g ORDER BY g;
SELECT percentile_disc(0) WITHIN GROUP (ORDER BY n),
       percentile_disc(0.2) WITHIN GROUP (ORDER BY n),
       percentile_disc(0.6) WITHIN GROUP (ORDER BY n),
       percentile_disc(1) WITHIN GROUP (ORDER BY n)
FROM os;
SELECT pg_typeof(a), pg_typeof(b), pg_typeof(c), pg_typeof(d), pg_typeof(e),
       pg_typeof(f)
FROM (SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY i) a,
             percentile_disc(0.5) WITHIN GROUP (ORDER BY i::int2) b,
             percentile_disc(0.5) WITHIN GROUP (ORDER BY n) c,
             percentile_disc(0.5) WITHIN GROUP (ORDER BY v) d,
             percentile_disc(0.5) WITHIN GROUP (ORDER BY dt) e,
             percentile_disc(ARRAY[0.5]) WITHIN GROUP (ORDER BY t) f
      FROM os) s;
SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY x)
FROM (VALUES (true), (false), (true)) v(x);
SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY x)
FROM (VALUES (ARRAY[2, 1]), (ARRAY[1, 5]), (ARRAY[3])) v(x);
-- mode: the most frequent value, ties to the first in sort order.
SELECT g, mode() WITHIN GROUP (ORDER BY i) AS i,
       mode() WITHIN GROUP (ORDER BY t) AS t,
       mode() WITHIN GROUP (ORDER BY iv) AS iv
FROM os GROUP BY g ORDER BY g;
SELECT mode() WITHIN GROUP (ORDER BY x), mode() WITHIN GROUP (ORDER BY x DESC)
FROM (VALUES (3), (1), (2), (3), (1), (2), (NULL), (NULL), (NULL)) v(x);
SELECT mode() WITHIN GROUP (ORDER BY x), mode() WITHIN GROUP (ORDER BY x DESC)
FROM (VALUES ('b'), ('a'), ('c'), ('c'), ('a')) v(x);
SELECT mode() WITHIN GROUP (ORDER BY x)
FROM (VALUES (1.5::float8), ('NaN'), ('NaN'), (2), (2)) v(x);
SELECT mode() WITHIN GROUP (ORDER BY x), pg_typeof(mode() WITHIN GROUP (ORDER BY x))
FROM (VALUES (1.50), (2.0), (2.0), (1.50), (0.5)) v(x);
SELECT mode() WITHIN GROUP (ORDER BY x)
FROM (VALUES (true), (false), (false)) v(x);
-- NULL inputs, empty groups and no rows.
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY i),
       percentile_disc(0.5) WITHIN GROUP (ORDER BY t),
       mode() WITHIN GROUP (ORDER BY iv),
       percentile_cont(ARRAY[0.5]) WITHIN GROUP (ORDER BY d)
FROM os WHERE g = 3;
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY i),
       percentile_disc(0.5) WITHIN GROUP (ORDER BY t),
       mode() WITHIN GROUP (ORDER BY iv),
       percentile_disc(ARRAY[0.5]) WITHIN GROUP (ORDER BY d)
FROM os WHERE false;
SELECT g, percentile_cont(0.5) WITHIN GROUP (ORDER BY i) FROM os WHERE false GROUP BY g;
SELECT percentile_cont(NULL) WITHIN GROUP (ORDER BY i),
       percentile_disc(NULL) WITHIN GROUP (ORDER BY i),
       percentile_cont(NULL::float8[]) WITHIN GROUP (ORDER BY i),
       percentile_cont(0.5) WITHIN GROUP (ORDER BY NULL)
FROM os;
-- FILTER, HAVING, ORDER BY, expressions over the result.
SELECT g, percentile_cont(0.5) WITHIN GROUP (ORDER BY i) FILTER (WHERE i > 1),
       percentile_disc(0.5) WITHIN GROUP (ORDER BY t) FILTER (WHERE t <> 'a'),
       mode() WITHIN GROUP (ORDER BY i) FILTER (WHERE i <> 3)
FROM os GROUP BY g ORDER BY g;
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY i) FILTER (WHERE false) FROM os;
SELECT g FROM os GROUP BY g
HAVING percentile_cont(0.5) WITHIN GROUP (ORDER BY n) > 3 ORDER BY g;
SELECT g, percentile_disc(0.5) WITHIN GROUP (ORDER BY n) AS m FROM os
GROUP BY g ORDER BY percentile_disc(0.5) WITHIN GROUP (ORDER BY n) DESC NULLS LAST;
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY i) * 2 + 1,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY i + b),
       count(*), max(i)
FROM os;
-- The fraction may use grouped columns, parameters and subqueries.
SELECT g, percentile_cont(g / 4.0) WITHIN GROUP (ORDER BY i),
       percentile_disc(g / 4.0) WITHIN GROUP (ORDER BY i)
FROM os GROUP BY g ORDER BY g;
SELECT percentile_cont((SELECT 0.25)) WITHIN GROUP (ORDER BY i) FROM os;
PREPARE pc(float8) AS SELECT percentile_cont($1) WITHIN GROUP (ORDER BY i) FROM os;
EXECUTE pc(0.75);
EXECUTE pc(0);
DEALLOCATE pc;
-- Arrays of fractions.
SELECT percentile_cont(ARRAY[0.25, 0.5, 0.75]) WITHIN GROUP (ORDER BY i),
       percentile_disc(ARRAY[0.25, 0.5, 0.75]) WITHIN GROUP (ORDER BY i)
FROM os;
SELECT g, percentile_cont(ARRAY[1, 0, 0.5]) WITHIN GROUP (ORDER BY iv),
       percentile_disc(ARRAY[0.9, NULL, 0.1]) WITHIN GROUP (ORDER BY t)
FROM os GROUP BY g ORDER BY g;
SELECT percentile_cont(ARRAY[[0.5, 0.2], [0.1, 1]]) WITHIN GROUP (ORDER BY i),
       percentile_disc(ARRAY[[0.5, 0.2], [0.1, 1]]) WITHIN GROUP (ORDER BY n),
       percentile_cont('{}'::float8[]) WITHIN GROUP (ORDER BY d),
       percentile_disc('[0:1]={0.5,1}'::float8[]) WITHIN GROUP (ORDER BY d)
FROM os;
SELECT percentile_cont(ARRAY[0.5, NULL]) WITHIN GROUP (ORDER BY d DESC),
       percentile_disc(ARRAY[0.5, 0.1]) WITHIN GROUP (ORDER BY v)
FROM os;
-- NaN and infinities.
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x),
       percentile_cont(0.9) WITHIN GROUP (ORDER BY x),
       percentile_disc(0.9) WITHIN GROUP (ORDER BY x)
FROM (VALUES ('NaN'::float8), (1), ('Infinity'), ('-Infinity')) v(x);
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x)
FROM (VALUES ('Infinity'::float8), ('-Infinity')) v(x);
-- Errors.
SELECT percentile_cont(1.5) WITHIN GROUP (ORDER BY i) FROM os;
SELECT percentile_disc(-0.1) WITHIN GROUP (ORDER BY i) FROM os;
SELECT percentile_cont('NaN') WITHIN GROUP (ORDER BY i) FROM os;
SELECT percentile_cont(1.5) WITHIN GROUP (ORDER BY i) FROM os WHERE false;
SELECT percentile_cont(1.5) WITHIN GROUP (ORDER BY i) FROM os WHERE false GROUP BY g;
SELECT percentile_cont(ARRAY[0.5, 2]) WITHIN GROUP (ORDER BY i) FROM os;
SELECT percentile_cont(ARRAY[2]) WITHIN GROUP (ORDER BY i) FROM os WHERE false;
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY t) FROM os;
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY i, d) FROM os;
SELECT percentile_cont(0.5) FROM os;
SELECT mode() FROM os;
SELECT mode(1) WITHIN GROUP (ORDER BY i) FROM os;
SELECT percentile_cont(i) WITHIN GROUP (ORDER BY i) FROM os;
SELECT g, percentile_cont(i / 10.0) WITHIN GROUP (ORDER BY i) FROM os GROUP BY g;
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY i) OVER () FROM os;
SELECT mode() WITHIN GROUP (ORDER BY i) OVER (PARTITION BY g) FROM os;
SELECT percentile_cont(sum(i)) WITHIN GROUP (ORDER BY i) FROM os;
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY sum(i)) FROM os;
SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY 'a') FROM os;
SELECT mode() WITHIN GROUP (ORDER BY NULL) FROM os;
SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY i::text::json) FROM os;
SELECT percentile_disc(ARRAY[0.5]) WITHIN GROUP (ORDER BY ARRAY[i]) FROM os;
SELECT percentile_cont(ARRAY['a']) WITHIN GROUP (ORDER BY i) FROM os;
SELECT sum(i) WITHIN GROUP (ORDER BY i) FROM os;
SELECT lower(t) WITHIN GROUP (ORDER BY t) FROM os;
SELECT i FROM os WHERE percentile_cont(0.5) WITHIN GROUP (ORDER BY i) > 1;
SELECT percentile_cont(DISTINCT 0.5) WITHIN GROUP (ORDER BY i) FROM os;
DROP TABLE os;
