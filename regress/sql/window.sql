--
-- Window functions: OVER (PARTITION BY, ORDER BY, frames), WINDOW clauses,
-- ranking and value functions, aggregates over windows, result types,
-- NULL ordering, windows over grouped rows, and the errors
--
-- (tables of this file are named win_*: tests of a group share the database)
--
CREATE TABLE win_emp (id integer, dept text, salary integer, bonus numeric(8,2), score float8, big bigint);
INSERT INTO win_emp VALUES
    (1, 'sales', 5000, 100.50, 1.5, 9000000000),
    (2, 'sales', 4000, NULL, 2.25, 1),
    (3, 'dev', 6000, 200.00, NULL, 2),
    (4, 'dev', 4000, 50.25, 0.1, NULL),
    (5, 'dev', 4000, 10.00, 3.0, 5),
    (6, NULL, NULL, NULL, -1.0, 6),
    (7, 'ops', 3000, 0.10, 2.5, 7);
CREATE TABLE win_empty (id integer, v integer);
-- ranking
SELECT id, row_number() OVER (ORDER BY id) FROM win_emp ORDER BY id;
SELECT id, dept, salary,
       row_number() OVER (PARTITION BY dept ORDER BY salary, id),
       rank() OVER (PARTITION BY dept ORDER BY salary),
       dense_rank() OVER (PARTITION BY dept ORDER BY salary)
  FROM win_emp ORDER BY dept, salary, id;
SELECT id, salary, rank() OVER (ORDER BY salary), dense_rank() OVER (ORDER BY salary DESC),
       percent_rank() OVER (ORDER BY salary), cume_dist() OVER (ORDER BY salary)
  FROM win_emp ORDER BY id;
SELECT id, ntile(3) OVER (ORDER BY id), ntile(2) OVER (PARTITION BY dept ORDER BY id) FROM win_emp ORDER BY id;
SELECT row_number() OVER () AS rn FROM win_emp ORDER BY rn DESC LIMIT 2;
-- NULLs sort last ascending, first descending
SELECT id, salary, row_number() OVER (ORDER BY salary, id) FROM win_emp ORDER BY id;
SELECT id, salary, row_number() OVER (ORDER BY salary DESC, id) FROM win_emp ORDER BY id;
SELECT id, salary, row_number() OVER (ORDER BY salary NULLS FIRST, id) FROM win_emp ORDER BY id;
SELECT id, dept, row_number() OVER (PARTITION BY dept ORDER BY id) FROM win_emp ORDER BY dept, id;
-- lag / lead / first_value / last_value / nth_value
SELECT id, salary, lag(salary) OVER w, lead(salary) OVER w, lag(salary, 2) OVER w,
       lead(salary, 2, -1) OVER w, lag(salary, 1, 0) OVER w
  FROM win_emp WINDOW w AS (ORDER BY id) ORDER BY id;
SELECT id, lag(dept, 1, 'none') OVER (ORDER BY id), lead(bonus, 1, 0) OVER (ORDER BY id) FROM win_emp ORDER BY id;
SELECT id, lag(salary, 1, 0.5) OVER (ORDER BY id) FROM win_emp ORDER BY id;
SELECT id, first_value(salary) OVER w, last_value(salary) OVER w, nth_value(salary, 2) OVER w
  FROM win_emp WINDOW w AS (PARTITION BY dept ORDER BY id) ORDER BY id;
SELECT id, first_value(id) OVER w, last_value(id) OVER w, nth_value(id, 3) OVER w
  FROM win_emp WINDOW w AS (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) ORDER BY id;
-- aggregates as window functions, and their types
SELECT id, dept, salary,
       sum(salary) OVER (PARTITION BY dept),
       count(*) OVER (PARTITION BY dept),
       count(salary) OVER (PARTITION BY dept),
       avg(salary) OVER (PARTITION BY dept),
       min(salary) OVER (PARTITION BY dept),
       max(salary) OVER (PARTITION BY dept)
  FROM win_emp ORDER BY id;
SELECT id, sum(salary) OVER (ORDER BY id), avg(salary) OVER (ORDER BY id) FROM win_emp ORDER BY id;
SELECT id, sum(bonus) OVER (ORDER BY id), avg(bonus) OVER (ORDER BY id), max(bonus) OVER () FROM win_emp ORDER BY id;
SELECT id, sum(big) OVER (ORDER BY id), avg(big) OVER (ORDER BY id) FROM win_emp ORDER BY id;
SELECT id, sum(score) OVER (ORDER BY id), avg(score) OVER (ORDER BY id) FROM win_emp ORDER BY id;
SELECT id, string_agg(dept, ',') OVER (ORDER BY id) FROM win_emp ORDER BY id;
SELECT id, bool_and(salary > 3500) OVER (ORDER BY id), bool_or(salary > 5500) OVER (ORDER BY id) FROM win_emp ORDER BY id;
SELECT id, count(*) FILTER (WHERE salary >= 4000) OVER (ORDER BY id) FROM win_emp ORDER BY id;
SELECT pg_typeof(row_number() OVER ()), pg_typeof(rank() OVER ()), pg_typeof(percent_rank() OVER ()),
       pg_typeof(ntile(2) OVER ()), pg_typeof(sum(salary) OVER ()), pg_typeof(avg(salary) OVER ()),
       pg_typeof(sum(big) OVER ()), pg_typeof(count(*) OVER ())
  FROM win_emp LIMIT 1;
-- ties: peers share the RANGE frame
SELECT id, salary, sum(salary) OVER (ORDER BY salary), count(*) OVER (ORDER BY salary) FROM win_emp ORDER BY salary, id;
-- frames
SELECT id, sum(id) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM win_emp ORDER BY id;
SELECT id, sum(id) OVER (ORDER BY id ROWS 2 PRECEDING) FROM win_emp ORDER BY id;
SELECT id, sum(id) OVER (ORDER BY id ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) FROM win_emp ORDER BY id;
SELECT id, sum(id) OVER (ORDER BY id ROWS BETWEEN 2 FOLLOWING AND 3 FOLLOWING) FROM win_emp ORDER BY id;
SELECT id, salary, sum(id) OVER (ORDER BY salary RANGE BETWEEN 1000 PRECEDING AND CURRENT ROW) FROM win_emp ORDER BY salary, id;
SELECT id, salary, sum(id) OVER (ORDER BY salary GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM win_emp ORDER BY salary, id;
SELECT id, salary, sum(id) OVER (ORDER BY salary ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING EXCLUDE CURRENT ROW) FROM win_emp ORDER BY salary, id;
SELECT id, salary, sum(id) OVER (ORDER BY salary RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW EXCLUDE TIES) FROM win_emp ORDER BY salary, id;
SELECT id, salary, sum(id) OVER (ORDER BY salary RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW EXCLUDE GROUP) FROM win_emp ORDER BY salary, id;
SELECT id, sum(bonus) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW), avg(bonus) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM win_emp ORDER BY id;
-- named windows and references between them
SELECT id, sum(salary) OVER w, rank() OVER w FROM win_emp WINDOW w AS (PARTITION BY dept ORDER BY salary) ORDER BY id;
SELECT id, sum(salary) OVER (w ORDER BY id) FROM win_emp WINDOW w AS (PARTITION BY dept) ORDER BY id;
SELECT id, count(*) OVER w2 FROM win_emp WINDOW w1 AS (PARTITION BY dept), w2 AS (w1 ORDER BY id ROWS 1 PRECEDING) ORDER BY id;
SELECT id, row_number() OVER (w) FROM win_emp WINDOW w AS (ORDER BY id DESC) ORDER BY id;
-- window functions in ORDER BY, expressions and subqueries
SELECT id, salary FROM win_emp ORDER BY row_number() OVER (ORDER BY salary DESC, id);
SELECT id, 100 * rank() OVER (ORDER BY salary) AS r, row_number() OVER (ORDER BY id) || '!' AS t FROM win_emp ORDER BY id;
SELECT * FROM (SELECT id, dept, rank() OVER (PARTITION BY dept ORDER BY salary DESC) AS r FROM win_emp) s WHERE r = 1 ORDER BY id;
SELECT id FROM win_emp WHERE id IN (SELECT max(id) OVER () FROM win_emp) ORDER BY id;
-- over grouped rows
SELECT dept, sum(salary), rank() OVER (ORDER BY sum(salary) DESC), sum(sum(salary)) OVER () FROM win_emp GROUP BY dept ORDER BY dept;
SELECT dept, count(*), round(100.0 * count(*) / sum(count(*)) OVER (), 2) AS pct FROM win_emp GROUP BY dept ORDER BY dept;
SELECT dept, avg(salary) OVER (ORDER BY dept) FROM win_emp GROUP BY dept ORDER BY dept;
-- empty input
SELECT id, row_number() OVER (), sum(v) OVER () FROM win_empty;
SELECT count(*) OVER () FROM win_empty;
-- with DISTINCT
SELECT DISTINCT dept, count(*) OVER (PARTITION BY dept) FROM win_emp ORDER BY dept;
-- without FROM
SELECT row_number() OVER (), rank() OVER (ORDER BY 1);
-- errors
SELECT id FROM win_emp WHERE row_number() OVER () > 1;
SELECT dept FROM win_emp GROUP BY row_number() OVER ();
SELECT dept FROM win_emp GROUP BY dept HAVING rank() OVER () > 1;
SELECT id, row_number() OVER w FROM win_emp;
SELECT id, row_number() OVER (w ORDER BY id) FROM win_emp;
SELECT id FROM win_emp WINDOW w AS (ORDER BY id), w AS (ORDER BY salary);
SELECT sum(row_number() OVER ()) FROM win_emp;
SELECT sum(row_number() OVER ()) OVER () FROM win_emp;
SELECT lower(dept) OVER () FROM win_emp;
SELECT row_number(id) OVER () FROM win_emp;
SELECT count(DISTINCT dept) OVER () FROM win_emp;
SELECT id, salary, rank() OVER (ORDER BY salary) FROM win_emp GROUP BY id;
SELECT dept, rank() OVER (ORDER BY salary) FROM win_emp GROUP BY dept;
SELECT id, sum(salary) OVER (w PARTITION BY id) FROM win_emp WINDOW w AS (PARTITION BY dept);
SELECT id, sum(salary) OVER (w ORDER BY id) FROM win_emp WINDOW w AS (ORDER BY salary);
SELECT id, sum(salary) OVER (w) FROM win_emp WINDOW w AS (ORDER BY id ROWS 1 PRECEDING);
SELECT id, ntile(0) OVER () FROM win_emp;
SELECT id, nth_value(id, 0) OVER () FROM win_emp;
SELECT id, sum(id) OVER (ORDER BY id ROWS -1 PRECEDING) FROM win_emp;
SELECT id, sum(id) OVER (ORDER BY id, salary RANGE 1 PRECEDING) FROM win_emp;
SELECT id, sum(id) OVER (ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING), count(*) OVER (GROUPS 1 PRECEDING) FROM win_emp;
SELECT id FROM win_emp LIMIT row_number() OVER ();
SELECT count(*) FROM win_emp JOIN win_empty ON row_number() OVER () = 1;
DROP TABLE win_emp, win_empty;
-- ntile and nth_value with a NULL or non-positive count
select x, ntile(null) over (order by x), nth_value(x, null) over (order by x) from generate_series(1, 3) x;
select ntile(0) over (order by x) from generate_series(1, 3) x;
select nth_value(x, 0) over (order by x) from generate_series(1, 3) x;
select nth_value(x, -1) over (order by x) from generate_series(1, 3) x;
