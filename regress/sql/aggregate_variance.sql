-- stddev, variance and their _samp / _pop forms: exact (numeric) over
-- integers and numerics, double precision over reals and doubles.
CREATE TABLE m (g int, i int, b bigint, n numeric, r real, d float8);
INSERT INTO m VALUES
  (1, 1, 9223372036854775807, 1.5, 1.1, 1.5),
  (1, 2, 9223372036854775806, 2.25, 2.2, 2.25),
  (1, 4, -9223372036854775808, 4.125, 3.3, 4.125),
  (1, NULL, NULL, NULL, NULL, NULL),
  (2, 10, 10, 10.00, 10, 10),
  (2, 20, 20, 20.0, 20, 20),
  (2, 35, 35, -35, -35, -35),
  (3, 7, 7, 7, 7, 7);
SELECT g, stddev(i), variance(i), stddev_pop(i), var_pop(i) FROM m GROUP BY g ORDER BY g;
SELECT g, stddev_samp(b), var_samp(b), stddev_pop(b), var_pop(b) FROM m GROUP BY g ORDER BY g;
SELECT g, stddev(n), variance(n), stddev_pop(n), var_pop(n) FROM m GROUP BY g ORDER BY g;
SELECT g, stddev(r), variance(r), stddev_pop(r), var_pop(r) FROM m GROUP BY g ORDER BY g;
SELECT g, stddev(d), variance(d), stddev_pop(d), var_pop(d) FROM m GROUP BY g ORDER BY g;
WITH s AS (SELECT stddev(i) a, variance(n) b, var_pop(r) c, stddev_pop(d) e FROM m)
SELECT pg_typeof(a), pg_typeof(b), pg_typeof(c), pg_typeof(e) FROM s;
-- Over the whole table, with FILTER, DISTINCT and HAVING.
SELECT stddev(i), variance(n), stddev(d) FROM m;
SELECT stddev(i) FILTER (WHERE g = 2), variance(DISTINCT i % 3) FROM m;
SELECT g FROM m GROUP BY g HAVING variance(i) > 10 ORDER BY g;
-- Empty input, one row, equal values.
SELECT stddev(i), var_pop(i), stddev(d), var_pop(d) FROM m WHERE false;
SELECT stddev(i), var_pop(i), stddev(d), var_pop(d) FROM m WHERE g = 3;
SELECT variance(x), stddev_pop(x) FROM (VALUES (5.00), (5.00)) v(x);
-- NaN and infinities.
SELECT variance(x::numeric), stddev_pop(x::numeric) FROM (VALUES ('NaN'), ('1')) v(x);
SELECT variance(x::float8), stddev(x::float8) FROM (VALUES ('Infinity'), ('1')) v(x);
SELECT variance(x::float8) FROM (VALUES ('NaN')) v(x);
SELECT variance(x) FROM (VALUES (1e300::float8), (-1e300)) v(x);
-- An unknown literal is a double.
SELECT stddev('1'), variance('2'), var_pop('3');
SELECT variance(x) FROM (VALUES ('1'::text)) v(x);
SELECT stddev(true);
-- As window functions, over moving frames.
SELECT i, stddev(i) OVER w, var_pop(n) OVER w, variance(d) OVER w
  FROM m WHERE i IS NOT NULL
WINDOW w AS (ORDER BY i ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING)
 ORDER BY i;
SELECT x, var_samp(x) OVER (ORDER BY x ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)
  FROM (VALUES (1.5), (2), (3), (4.25), (5)) v(x) ORDER BY x;
-- sqrt of numeric is exact at its result scale.
SELECT sqrt(2::numeric(40,30)), sqrt(0.0001), sqrt(1e-20::numeric),
       sqrt(123456789012345678901234567890::numeric), sqrt(0::numeric),
       sqrt(10.000000000000000000000000000001);
DROP TABLE m;
-- pg_typeof of an aggregate keeps the query grouped.
select pg_typeof(sum(x)), pg_typeof(avg(x)), pg_typeof(count(*)) from (values (1),(2),(3)) v(x);
select g, pg_typeof(max(x)) from (values (1, 1.5),(1, 2),(2, 3)) v(g, x) group by g order by g;
select pg_typeof(sum(x)) from (values (1)) v(x) where false;
select pg_typeof(x) from (values (1),(2)) v(x);
