-- Joins on columns no index serves: the same answers as PostgreSQL (Kova
-- gives SQLite a materialized side with the key as a column to index).
CREATE TABLE jun_tenk (unique1 int4, unique2 int4, thousand int4, tenthous int4, stringu1 name, f float8, b bool);
INSERT INTO jun_tenk SELECT i, (i*7919)%10000, i%1000, i, 'A'||(i%5000), i / 7.0, i % 3 = 0 FROM generate_series(0,9999) i;
select count(*) from jun_tenk a join jun_tenk b on a.thousand = b.unique2;
select count(*), sum(b.unique1) from jun_tenk a left join jun_tenk b on a.thousand = b.unique2 and b.unique1 < 5000;
select count(*) from jun_tenk a, jun_tenk b where a.stringu1 = b.stringu1 and a.unique1 < 100;
select count(*) from jun_tenk a, jun_tenk b where a.f = b.f;
select count(*) from jun_tenk a join jun_tenk b on a.b = b.b where a.unique1 < 10;
select count(*) from jun_tenk a join jun_tenk b on a.unique1 = b.thousand join jun_tenk c on c.tenthous = b.unique2;
select count(*) from jun_tenk a full join (select * from jun_tenk where unique1 < 50) b on a.thousand = b.unique1;
SELECT count(*) FROM (SELECT t3.tenthous AS x1, coalesce(t1.stringu1, t2.stringu1) AS x2
   FROM jun_tenk t1 LEFT JOIN jun_tenk t2 ON t1.unique1 = t2.unique1 JOIN jun_tenk t3 ON t1.unique2 = t3.unique2) ss,
  jun_tenk t4, jun_tenk t5
WHERE t4.thousand = t5.unique1 AND ss.x1 = t4.tenthous AND ss.x2 = t5.stringu1;
select a.unique1, b.unique1 from jun_tenk a join jun_tenk b on a.unique2 = b.thousand where a.unique1 < 3 order by 1, 2;
create table jun_keys (id serial primary key, k int);
insert into jun_keys (k) select g % 100 from generate_series(1, 1000) g;
select count(*) from jun_keys a join jun_tenk b on a.k = b.thousand;
update jun_keys set k = k + 1 from jun_tenk b where jun_keys.k = b.unique1 and b.unique2 < 5000;
select count(*), sum(k) from jun_keys;
delete from jun_keys using jun_tenk b where jun_keys.k = b.thousand and b.unique1 < 20;
select count(*) from jun_keys;
select count(*) from jun_keys a where exists (select 1 from jun_tenk b where b.thousand = a.k);
create table jun_small (id int, x int);
insert into jun_small select g, g * 10 from generate_series(1, 20) g;
select count(*), sum(b.unique1) from jun_small s join jun_tenk b on s.x = b.unique2 where s.id < 5;
select count(*), sum(b.unique1) from jun_tenk b join jun_small s on s.x = b.unique2;
select count(*), sum(s.id) from jun_tenk b left join jun_small s on s.x = b.unique2;
select count(*), sum(s.id) from jun_small s left join jun_tenk b on s.x = b.unique2;
select count(*), sum(s.id) from jun_small s right join jun_tenk b on s.x = b.unique2;
select count(*) from jun_tenk a join jun_tenk b on a.thousand = b.thousand where a.unique1 < 10;
drop table jun_tenk, jun_small, jun_keys;
