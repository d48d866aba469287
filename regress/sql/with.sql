--
-- WITH queries (non-recursive common table expressions)
--
create table with_e (id int primary key, boss int, name text, sal numeric);
insert into with_e values (1, null, 'ann', 100), (2, 1, 'bob', 80), (3, 1, 'cy', 90), (4, 2, 'di', 50);
with x as (select 1 as v) select * from x;
with rich as (select * from with_e where sal >= 80) select name from rich order by name;
with a as (select id, sal from with_e), b (i, s2) as (select id, sal * 2 from a) select * from b order by i;
with t(n) as (select count(*) from with_e) select n, (select max(sal) from with_e) from t;
with b as (select boss, count(*) c from with_e group by boss) select with_e.name, b.c from with_e join b on b.boss = with_e.id order by 1;
select * from with_e where id in (with y as (select 1) select * from y);
with x as (select 1), x as (select 2) select * from x;
with x (a, b) as (select 1) select * from x;
with with_e as (select 42 as id) select * from with_e;
with q as (select * from q) select 1;
with u as (select id from with_e where id < 3 union select 9) select * from u order by id;
with z as (select * from with_e) select count(*) from z z1, z z2;
with w as (select id from with_e) select * from w where id > (select min(id) from w);
CREATE VIEW with_v AS
  WITH top AS (SELECT name, sal FROM with_e ORDER BY sal DESC LIMIT 2)
  SELECT name FROM top;
SELECT * FROM with_v ORDER BY name;
SELECT name, (WITH m AS (SELECT max(sal) AS s FROM with_e) SELECT s FROM m) - sal AS gap
  FROM with_e ORDER BY id;
CREATE TABLE with_copy AS WITH c AS (SELECT id * 10 AS id FROM with_e) SELECT * FROM c;
SELECT * FROM with_copy ORDER BY id;
WITH x AS MATERIALIZED (SELECT 1 AS a), y AS NOT MATERIALIZED (SELECT 2 AS b)
  SELECT * FROM x, y;
WITH x AS (SELECT qqqqqqqq FROM with_e) SELECT 1;
WITH x AS (SELECT 1) SELECT * FROM x WHERE x.nope = 1;
DROP VIEW with_v;
DROP TABLE with_e, with_copy;
