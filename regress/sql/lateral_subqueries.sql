--
-- LATERAL subqueries in FROM, and FROM subqueries without LATERAL that
-- name the items beside them
--
CREATE TABLE a(id int primary key, v int, name text);
insert into a values (1,10,'x'),(2,20,'y'),(3,30,null);
CREATE TABLE b(id int, a_id int, w int, f float8, n numeric(10,3), t timestamptz, bt bytea, arr int[], j jsonb);
insert into b values (1,1,5,0.1,1.5,'2024-01-01 10:00+00','\x0102','{1,2}','{"k": [1, 2]}'),(2,1,7,1e300,-2.25,null,'\x','{}','"s"'),(3,2,9,-0.0,null,'2024-06-01','\xff',null,null);
select a.id, x.w from a, lateral (select w from b where b.a_id = a.id order by w desc limit 1) x order by 1;
select a.id, x.* from a left join lateral (select w, w * a.v as p from b where b.a_id = a.id order by w desc limit 1) x on true order by 1;
select a.id, x.* from a cross join lateral (select count(*) as c, sum(w) as s, max(f) as mf from b where b.a_id = a.id) x order by 1;
select a.id, x.* from a, lateral (select f, n, t, bt, arr, j from b where b.a_id = a.id) x order by 1, x.f;
select a.id, x.s from a, lateral (select a.v + b.w as s from b where b.a_id = a.id union all select a.v) x order by 1, 2;
select a.name, x.top from a join lateral (select string_agg(w::text, ',' order by w) as top from b where b.a_id = a.id) x on x.top is not null order by 1;
select count(*) from a, lateral (select * from b where b.a_id = a.id) x where x.w > 5;
select * from a, lateral (select a.id * 2 as d) x order by 1;
select a.id, y.* from a, lateral (select w from b where b.a_id = a.id) x, lateral (select x.w + 1 as w1) y order by 1, 2;
select * from a, (select * from b where b.a_id = a.id) x;
select pg_typeof(x.f), pg_typeof(x.n), pg_typeof(x.arr) from a, lateral (select f, n, arr from b where b.a_id = a.id limit 1) x where a.id = 1;
prepare lp(int) as select a.id, x.w from a, lateral (select w from b where b.a_id = a.id and w > $1) x order by 1, 2;
execute lp(5);
select * from a, (select * from b where a_id = v) x;
select * from a where exists (select 1 from (select * from b where b.a_id = a.id) x) order by 1;
select * from a, (select 1 as one) x where x.one = a.id;
DEALLOCATE lp;
DROP TABLE a, b;
