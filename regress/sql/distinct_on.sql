-- DISTINCT ON expressions must be the leading ORDER BY items (42P10)
create table don_t (a int, b int);
insert into don_t values (1, 2), (1, 1), (2, 5);
select distinct on (a) a, b from don_t order by b;
select distinct on (a) a, b from don_t order by a, b;
select distinct on (a, b) a, b from don_t order by b, a;
select distinct on (a, b) a, b from don_t order by b;
select distinct on (a) a, b from don_t order by a desc, b;
select distinct on (a + 1) a, b from don_t order by a + 1, b desc;
select distinct on (a + 1) a, b from don_t order by a, b desc;
select distinct on (b, a) a, b from don_t order by a, b;
select distinct on (1) a, b from don_t order by a, b;
select distinct on (a) a, b from don_t order by 1, 2;
select distinct on (don_t.a) a as x, b from don_t order by x, b;
select distinct on (a) a, b from don_t;
select distinct on (a, b) a, b from don_t order by a, a + 1;
drop table don_t;
