--
-- SELECT over tables: filters, ordering, joins, grouping and aggregates,
-- DISTINCT, subqueries, set operations, expressions, and their errors
--
-- (tables of this file are named sel_*: tests of a group share the database)
--
CREATE TABLE sel_emp (
    id integer PRIMARY KEY,
    name text,
    dept integer,
    salary integer,
    bonus numeric(8,2),
    score float8,
    manager integer
);
CREATE TABLE sel_dept (id integer PRIMARY KEY, dname text, budget bigint);
INSERT INTO sel_emp VALUES
    (1, 'alice', 10, 5000, 100.50, 1.5, NULL),
    (2, 'bob', 10, 4000, NULL, 2.25, 1),
    (3, 'carol', 20, 6000, 200.00, NULL, 1),
    (4, 'dave', 20, 4000, 50.25, 0.1, 3),
    (5, 'eve', NULL, 3000, 10.00, 3.0, 3),
    (6, NULL, 30, NULL, NULL, -1.0, NULL);
INSERT INTO sel_dept VALUES (10, 'sales', 100000), (20, 'dev', 250000), (40, 'empty', 0);
-- the hidden _id column is not part of *
SELECT * FROM sel_dept ORDER BY id;
SELECT sel_dept.* FROM sel_dept WHERE id = 10;
-- WHERE
SELECT id, name FROM sel_emp WHERE salary > 4000 ORDER BY id;
SELECT id FROM sel_emp WHERE dept = 10 AND salary >= 4000 OR name = 'eve' ORDER BY id;
SELECT id FROM sel_emp WHERE dept IS NULL OR salary IS NULL ORDER BY id;
SELECT id FROM sel_emp WHERE name LIKE '%a%' ORDER BY id;
SELECT id FROM sel_emp WHERE salary BETWEEN 3500 AND 5000 ORDER BY id;
SELECT id FROM sel_emp WHERE dept <> 10 ORDER BY id;
SELECT id FROM sel_emp WHERE bonus > 50 ORDER BY id;
SELECT id FROM sel_emp WHERE score < 1 ORDER BY id;
-- ORDER BY: NULLS LAST ascending, NULLS FIRST descending by default
SELECT id, dept FROM sel_emp ORDER BY dept, id;
SELECT id, dept FROM sel_emp ORDER BY dept DESC, id;
SELECT id, dept FROM sel_emp ORDER BY dept NULLS FIRST, id;
SELECT id, dept FROM sel_emp ORDER BY dept DESC NULLS LAST, id DESC;
SELECT id, name FROM sel_emp ORDER BY name;
SELECT id, score FROM sel_emp ORDER BY score DESC;
SELECT id, salary + coalesce(bonus, 0) AS total FROM sel_emp ORDER BY total DESC NULLS LAST, 1;
SELECT name FROM sel_emp ORDER BY 1 NULLS FIRST;
-- LIMIT / OFFSET
SELECT id FROM sel_emp ORDER BY id LIMIT 2;
SELECT id FROM sel_emp ORDER BY id LIMIT 2 OFFSET 3;
SELECT id FROM sel_emp ORDER BY id OFFSET 4;
SELECT id FROM sel_emp ORDER BY id LIMIT ALL OFFSET 5;
SELECT id FROM sel_emp ORDER BY id FETCH FIRST 1 ROW ONLY;
SELECT id FROM sel_emp ORDER BY id LIMIT 0;
SELECT id FROM sel_emp LIMIT -1;
-- joins
SELECT e.name, d.dname FROM sel_emp e JOIN sel_dept d ON e.dept = d.id ORDER BY e.id;
SELECT e.name, d.dname FROM sel_emp e, sel_dept d WHERE e.dept = d.id AND d.budget > 100000 ORDER BY e.id;
SELECT e.id, d.dname FROM sel_emp e LEFT JOIN sel_dept d ON e.dept = d.id ORDER BY e.id;
SELECT e.id, d.dname FROM sel_emp e RIGHT JOIN sel_dept d ON e.dept = d.id ORDER BY d.id, e.id;
SELECT e.id, d.id AS did FROM sel_emp e FULL JOIN sel_dept d ON e.dept = d.id ORDER BY e.id, d.id;
SELECT e.name, m.name AS manager FROM sel_emp e LEFT JOIN sel_emp m ON e.manager = m.id ORDER BY e.id;
SELECT count(*) FROM sel_emp CROSS JOIN sel_dept;
SELECT id, dname FROM sel_dept JOIN (VALUES (10), (40)) v(x) ON v.x = sel_dept.id ORDER BY id;
-- aggregates: result types and scales follow the argument type
SELECT count(*), count(dept), count(DISTINCT dept), sum(salary), avg(salary), min(salary), max(salary) FROM sel_emp;
SELECT sum(bonus), avg(bonus), min(bonus), max(bonus) FROM sel_emp;
SELECT sum(score), avg(score), min(score), max(score) FROM sel_emp;
SELECT sum(budget), avg(budget), pg_typeof(sum(budget)), pg_typeof(sum(salary)), pg_typeof(avg(salary)) FROM sel_emp, sel_dept WHERE sel_emp.id = 1;
SELECT min(name), max(name), count(name) FROM sel_emp;
SELECT count(*), sum(salary), avg(salary), max(name) FROM sel_emp WHERE false;
SELECT bool_and(salary > 3000), bool_or(salary > 5000), every(id > 0) FROM sel_emp;
-- GROUP BY / HAVING
SELECT dept, count(*), sum(salary), avg(salary) FROM sel_emp GROUP BY dept ORDER BY dept;
SELECT dept, avg(bonus), max(score) FROM sel_emp GROUP BY 1 ORDER BY 1 NULLS FIRST;
SELECT dept, count(*) FROM sel_emp GROUP BY dept HAVING count(*) > 1 ORDER BY dept;
SELECT dept, sum(salary) AS total FROM sel_emp WHERE salary IS NOT NULL GROUP BY dept HAVING sum(salary) >= 9000 ORDER BY total DESC;
SELECT d.dname, count(e.id) FROM sel_dept d LEFT JOIN sel_emp e ON e.dept = d.id GROUP BY d.dname ORDER BY d.dname;
SELECT salary / 1000 AS k, count(*) FROM sel_emp GROUP BY salary / 1000 ORDER BY k;
SELECT count(*) FROM sel_emp HAVING count(*) > 100;
-- string_agg and array_agg ORDER BY: keys compare as their types (numeric,
-- interval, date, float), not as their stored form
CREATE TABLE sel_agg (t text, n numeric, i interval, d date, b bigint, f float8);
INSERT INTO sel_agg VALUES ('a', 10, '1 day', '2020-01-02', 10, 1.5),
  ('b', 9.5, '2 hours', '2019-12-31', 9, -2), ('c', 100, '1 mon', '2021-06-01', 100, 10),
  ('d', -1, '-3 days', NULL, -1, NULL), ('e', NULL, NULL, '2000-01-01', NULL, 0.25),
  ('f', 10.00, '24 hours', '2020-01-02', 10, 1.5);
SELECT string_agg(t, ',' ORDER BY n, t) FROM sel_agg;
SELECT string_agg(t, ',' ORDER BY n DESC, t DESC) FROM sel_agg;
SELECT string_agg(t, ',' ORDER BY i, t), string_agg(t, ',' ORDER BY i DESC NULLS LAST, t) FROM sel_agg;
SELECT string_agg(t, ',' ORDER BY d, t), string_agg(t, ',' ORDER BY b, t), string_agg(t, ',' ORDER BY f, t) FROM sel_agg;
SELECT string_agg(t, ',' ORDER BY n::text) FROM sel_agg;
SELECT n > 0 AS pos, string_agg(t, '' ORDER BY n DESC) FROM sel_agg GROUP BY 1 ORDER BY 1;
SELECT array_agg(t ORDER BY n, t), array_agg(t ORDER BY i, t) FROM sel_agg;
-- DISTINCT
SELECT DISTINCT dept FROM sel_emp ORDER BY dept;
SELECT DISTINCT salary, dept FROM sel_emp ORDER BY salary, dept;
SELECT DISTINCT ON (dept) dept, name FROM sel_emp ORDER BY dept, salary DESC;
-- subqueries
SELECT name FROM sel_emp WHERE dept IN (SELECT id FROM sel_dept WHERE budget > 50000) ORDER BY id;
SELECT name FROM sel_emp WHERE dept NOT IN (SELECT id FROM sel_dept) ORDER BY id;
SELECT dname FROM sel_dept d WHERE EXISTS (SELECT 1 FROM sel_emp e WHERE e.dept = d.id) ORDER BY id;
SELECT dname FROM sel_dept d WHERE NOT EXISTS (SELECT 1 FROM sel_emp e WHERE e.dept = d.id);
SELECT name, (SELECT dname FROM sel_dept WHERE id = e.dept) FROM sel_emp e ORDER BY id;
SELECT name FROM sel_emp WHERE salary = (SELECT max(salary) FROM sel_emp);
SELECT name FROM sel_emp WHERE salary > ANY (SELECT salary FROM sel_emp WHERE dept = 20) ORDER BY id;
SELECT name FROM sel_emp WHERE salary >= ALL (SELECT salary FROM sel_emp WHERE salary IS NOT NULL);
SELECT x.dept, x.n FROM (SELECT dept, count(*) AS n FROM sel_emp GROUP BY dept) AS x WHERE x.n > 1 ORDER BY 1;
-- set operations
SELECT dept FROM sel_emp UNION SELECT id FROM sel_dept ORDER BY 1;
SELECT dept FROM sel_emp WHERE dept IS NOT NULL UNION ALL SELECT id FROM sel_dept ORDER BY 1;
SELECT dept FROM sel_emp INTERSECT SELECT id FROM sel_dept ORDER BY 1;
SELECT id FROM sel_dept EXCEPT SELECT dept FROM sel_emp ORDER BY 1;
SELECT salary FROM sel_emp INTERSECT ALL SELECT 4000 ORDER BY 1;
SELECT 1 AS a UNION SELECT 2.5 ORDER BY a;
SELECT name FROM sel_emp UNION SELECT 1;
SELECT id, name FROM sel_emp UNION SELECT id FROM sel_dept;
-- CASE, COALESCE, NULLIF, casts
SELECT id, CASE WHEN salary >= 5000 THEN 'high' WHEN salary >= 4000 THEN 'mid' ELSE 'low' END FROM sel_emp ORDER BY id;
SELECT id, CASE dept WHEN 10 THEN 'ten' WHEN 20 THEN 'twenty' END AS d FROM sel_emp ORDER BY id;
SELECT id, coalesce(name, 'anon'), coalesce(bonus, 0), nullif(dept, 10) FROM sel_emp ORDER BY id;
SELECT id, salary::text || '$', bonus::int, score::numeric(4,1), salary::float8 / 3 FROM sel_emp ORDER BY id;
SELECT id, CAST(salary AS bigint) * 1000000, dept::text, (salary / 7)::numeric(10,3) FROM sel_emp WHERE id < 3 ORDER BY id;
SELECT upper(name), length(name), salary * 1.1, salary / 3, salary % 7, -salary FROM sel_emp WHERE id <= 2 ORDER BY id;
-- comparisons and grouping across numeric types, text order, char(n) padding
CREATE TABLE sel_mix (k integer, t text, n numeric, f float8, b bigint, c char(4));
INSERT INTO sel_mix VALUES (1, 'apple', 1.10, 1.1, 1, 'ab'), (2, 'Banana', 1.1, 1.10, 2, 'ab  '),
    (3, 'cherry', 1.100, 2, 3, 'b'), (4, '_x%', 2, 2.0, 2147483648, NULL), (5, 'apple ', 10, 1e10, -1, 'a');
SELECT k, t FROM sel_mix ORDER BY t;
SELECT n, count(*) FROM sel_mix GROUP BY n ORDER BY n;
SELECT DISTINCT f FROM sel_mix ORDER BY f;
SELECT k FROM sel_mix WHERE n = f ORDER BY k;
SELECT a.k, b.k FROM sel_mix a JOIN sel_mix b ON a.n = b.f ORDER BY 1, 2;
SELECT k FROM sel_mix WHERE b > 2147483647;
SELECT k FROM sel_mix WHERE t LIKE '\_%' OR t ILIKE 'BAN%' ORDER BY k;
SELECT k FROM sel_mix WHERE c = 'ab' ORDER BY k;
SELECT k, c, length(c), c || '|' FROM sel_mix ORDER BY k;
SELECT sum(b), avg(b), sum(n), avg(n), sum(f), avg(f) FROM sel_mix;
SELECT k FROM sel_mix WHERE k NOT IN (1, NULL);
DROP TABLE sel_mix;
-- errors
SELECT nosuch FROM sel_emp;
SELECT e.nosuch FROM sel_emp e;
SELECT * FROM sel_nosuch;
SELECT id FROM sel_emp e JOIN sel_dept d ON e.dept = d.id;
SELECT name, count(*) FROM sel_emp;
SELECT dept, salary FROM sel_emp GROUP BY dept;
SELECT id FROM sel_emp WHERE count(*) > 1;
SELECT (SELECT id FROM sel_emp);
SELECT name FROM sel_emp WHERE dept = (SELECT id FROM sel_dept);
SELECT id FROM sel_emp WHERE name = 5;
SELECT id FROM sel_emp ORDER BY 9;
SELECT sel_dept.id FROM sel_emp;
SELECT sum(name) FROM sel_emp;
SELECT id FROM sel_emp WHERE salary / 0 > 1;
SELECT id::smallint * 100000 FROM sel_emp;
-- functions in FROM: generate_series over integers
SELECT * FROM generate_series(1, 5);
SELECT g, g * 2 AS d FROM generate_series(10, 1, -3) AS g ORDER BY g;
SELECT count(*), sum(x) FROM generate_series(1, 100000) AS s(x);
SELECT * FROM generate_series(1, 3) a JOIN generate_series(2, 4) b ON a = b ORDER BY 1;
SELECT * FROM generate_series(1, 0);
SELECT * FROM generate_series(1, 5, 0);
INSERT INTO sel_emp (id, name) SELECT i + 100, 'gen' || i FROM generate_series(1, 3) i;
SELECT id, name FROM sel_emp WHERE id > 100 ORDER BY id;
DELETE FROM sel_emp WHERE id > 100;
DROP TABLE sel_emp, sel_dept, sel_agg;
