-- Immediate foreign key checks happen at the end of the statement, as
-- PostgreSQL's after-row triggers fire then: a multi-row INSERT may refer to
-- its own later rows, a DELETE may remove a whole tree of a self-referencing
-- table, NO ACTION accepts a key the statement brings back, RESTRICT does
-- not.
create table t (id int primary key, parent int references t);
insert into t values (1, 2) returning *;
insert into t values (1, 2), (2, 1) returning *;
-- the first row still failing at the end is the one reported
insert into t values (3, 4), (4, 5);
insert into t values (3, 4), (4, 3) on conflict (id) do nothing;
insert into t select g, g + 1 from generate_series(10, 14) g;
insert into t select g, case when g = 10 then null else g - 1 end from generate_series(10, 14) g;
select * from t order by id;
delete from t where id = 1;
delete from t where id in (1, 2) returning *;
-- a whole chain in one statement, the root first
delete from t where id >= 10 and id < 14;
delete from t where id >= 10;
-- keys of a tree moved together
insert into t values (20, null), (21, 20), (22, 21);
update t set id = id + 100, parent = parent + 100;
select * from t order by id;
update t set id = 200 where id = 120;
update t set parent = 999 where id = 122;
select * from t order by id;
-- RESTRICT
create table r (id int primary key, parent int references r on delete restrict on update restrict);
insert into r values (1, null), (2, 1), (3, 2);
delete from r;
insert into r values (1, null), (2, 1);
update r set id = 5 where id = 1;
-- two tables: NO ACTION accepts the key back, RESTRICT does not
create table p (id int primary key);
create table c_restrict (pid int references p on delete restrict);
create table c_noaction (pid int references p);
insert into p values (1), (2);
insert into c_noaction values (1);
with d as (delete from p where id = 1 returning id) insert into p select id from d;
select * from p order by id;
insert into c_restrict values (2);
with d as (delete from p where id = 2 returning id) insert into p select id from d;
with i as (insert into p values (7) returning id) insert into c_noaction select id from i;
with i as (insert into c_noaction values (8) returning pid) insert into p select pid from i;
insert into c_noaction values (9), (10);
select * from c_noaction order by pid;
-- the failing statement ends the block; the next one starts clean
begin;
insert into c_noaction values (11);
select 1;
rollback;
begin;
savepoint s;
insert into c_noaction values (12);
rollback to savepoint s;
insert into c_noaction values (1);
commit;
select * from c_noaction order by pid;
-- COPY checks at its end too
copy c_noaction from stdin;
13
\.
copy t from stdin;
30	31
31	30
\.
select * from t where id >= 30 order by id;
-- cascades still act, and what they leave is checked at the end
create table tree (id int primary key, parent int references tree on delete cascade);
insert into tree values (1, null), (2, 1), (3, 2), (4, 1);
create table leaf (tid int references tree);
insert into leaf values (3);
delete from tree where id = 1;
delete from leaf;
delete from tree where id = 2;
select * from tree order by id;
-- several statements in one query: each checked at its own end
insert into t values (40, 41); insert into t values (41, 40);
insert into t values (40, 41), (41, 40); select count(*) from t where id >= 40;
-- deferrable but immediate: checked at the statement's end as well
create table d (id int primary key, parent int references d deferrable);
insert into d values (1, 2), (2, 1);
insert into d values (3, 4);
begin;
set constraints all deferred;
insert into d values (3, 4);
insert into d values (4, 3);
commit;
select * from d order by id;
