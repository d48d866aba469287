--
-- ALTER TABLE ... RENAME COLUMN: views that read the column keep working
-- and keep their own column names.
--
create table vr_t (a int, b text);
create table vr_u (a int, c int);
insert into vr_t values (1, 'x'), (2, 'y');
insert into vr_u values (1, 10);
create view vr_v as select a, b, a + 1 as a1 from vr_t where a > 0 order by a;
create view vr_v2 as select * from vr_t;
create view vr_v4 as select r.a, r.b as bb, d.c from vr_t r join vr_u d on r.a = d.a;
create view vr_v5 as select b, count(*) as n, max(a) from vr_t group by b having min(a) > 0;
create view vr_v6 as select x.a from (select a from vr_t) x;
alter table vr_t rename column a to aa;
select * from vr_v;
select * from vr_v2;
select * from vr_v4;
select * from vr_v5 order by b;
select * from vr_v6 order by 1;
alter table vr_t rename column aa to a;
select * from vr_v;
select * from vr_v4;
drop view vr_v, vr_v2, vr_v4, vr_v5, vr_v6;
drop table vr_t, vr_u;
