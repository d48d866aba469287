--
-- Rows IN / NOT IN (subquery)
--
CREATE TABLE g(id int primary key, name text, score int);
insert into g values (1, 'a', 1), (2, 'b', 2), (3, 'c', null);
select * from g where (score, name) in (select score, name from g where id < 3) order by 1;
select * from g where (id, name) not in (select id, name from g where id = 1) order by 1;
select id, (score, name) in (select 1, 'a' union all select null, 'c') from g order by 1;
select id, (id, score) not in (select 2, null::int) from g order by 1;
select (1, NULL::int) IN (SELECT 1, 2) is null, (1, NULL::int) IN (SELECT 2, 2), (1,2) IN (SELECT 1, NULL::int) is null;
select * from g where (id, name) in (select id from g);
select * from g where (id) in (select id, name from g);
select * from g where (id, name) in (select id, name, score from g);
select * from g where (id, score) in (select name, id from g);
select * from g where (id, name) = any (select id, name from g where id = 2);
select count(*) from g where (id, 'b') in (select id, name from g);
DROP TABLE g;
