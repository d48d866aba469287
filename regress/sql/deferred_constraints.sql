-- DEFERRABLE foreign keys: checked at commit (or at SET CONSTRAINTS ...
-- IMMEDIATE) when deferred; the flags in pg_constraint and
-- pg_get_constraintdef; SET CONSTRAINTS and ALTER CONSTRAINT.
create table p1 (id int primary key);
create table c1 (id int primary key, p int references p1 deferrable initially deferred);
create table c2 (id int primary key, p int, constraint c2_p foreign key (p) references p1 deferrable);
create table c3 (id int, p int references p1 initially deferred);
create table c4 (p int not null deferrable);
create table c5 (p int references p1 initially deferred not deferrable);
create table c6 (p int references p1 deferrable not deferrable);
create table c7 (p int check (p > 0) deferrable);
create table c8 (p int unique deferrable initially deferred);
select conname, condeferrable, condeferred, pg_get_constraintdef(oid) from pg_constraint where conrelid in ('c1'::regclass, 'c2'::regclass, 'c3'::regclass, 'c8'::regclass) order by 1;
-- deferred: insert child first
begin;
insert into c1 values (1, 10);
insert into p1 values (10);
commit;
select * from c1;
-- deferred violation at commit
begin;
insert into c1 values (2, 20);
commit;
select * from c1;
-- autocommit statement: checked at its end
insert into c1 values (3, 30);
-- DEFERRABLE INITIALLY IMMEDIATE: immediate unless SET CONSTRAINTS
begin;
insert into c2 values (1, 11);
rollback;
begin;
set constraints c2_p deferred;
insert into c2 values (1, 11);
insert into p1 values (11);
commit;
begin;
set constraints all deferred;
insert into c2 values (2, 12);
set constraints all immediate;
rollback;
-- parent side: delete then re-insert the key
begin;
delete from p1 where id = 10;
insert into p1 values (10);
commit;
begin;
delete from p1 where id = 10;
commit;
-- savepoint rollback drops the violation
begin;
savepoint s;
insert into c1 values (4, 40);
rollback to savepoint s;
commit;
select * from c1 order by id;
-- errors of SET CONSTRAINTS
set constraints all deferred;
begin;
set constraints nosuch deferred;
rollback;
begin;
set constraints p1_pkey deferred;
rollback;
begin;
set constraints public.c2_p, c1_p_fkey immediate;
commit;
-- deferred then delete the child: nothing to check
begin;
insert into c1 values (5, 50);
delete from c1 where id = 5;
commit;
-- update child key to a missing one, then fix it
begin;
update c1 set p = 99 where id = 1;
update c1 set p = 10 where id = 1;
commit;
-- multi-statement implicit transaction
insert into c1 values (6, 60); insert into p1 values (60);
insert into c1 values (7, 70); select 1;
select * from c1 order by id;
drop table c1, c2, c3, c8, p1;
create table p2 (id int primary key);
create table c9 (id int primary key, p int);
alter table c9 add constraint c9_p foreign key (p) references p2 deferrable initially deferred;
alter table c9 add column q int references p2 initially deferred;
alter table c9 add column r int check (r > 0) deferrable;
select conname, condeferrable, condeferred, pg_get_constraintdef(oid) from pg_constraint where conrelid = 'c9'::regclass order by 1;
alter table c9 alter constraint c9_p not deferrable;
alter table c9 alter constraint c9_pkey deferrable;
alter table c9 alter constraint nope deferrable;
alter table c9 alter constraint c9_q_fkey deferrable initially immediate;
select conname, condeferrable, condeferred, pg_get_constraintdef(oid) from pg_constraint where conrelid = 'c9'::regclass order by 1;
begin; insert into c9 values (1, null, 5); commit;
begin; set constraints c9_q_fkey deferred; insert into c9 values (2, null, 6); insert into p2 values (6); commit;
\d c9
drop table c9, p2;
-- SET CONSTRAINTS after a savepoint is undone by ROLLBACK TO it
create table sp_p (id int primary key);
create table sp_c (id int primary key, p int, constraint sp_c_p foreign key (p) references sp_p deferrable);
begin;
savepoint a;
set constraints all deferred;
insert into sp_c values (300, 300);
rollback to savepoint a;
insert into sp_c values (301, 301);
rollback;
begin;
set constraints sp_c_p deferred;
savepoint a;
set constraints sp_c_p immediate;
savepoint b;
set constraints all deferred;
release savepoint b;
rollback to savepoint a;
insert into sp_c values (302, 302);
insert into sp_p values (302);
commit;
select * from sp_c;
begin;
savepoint a;
set constraints all deferred;
savepoint b;
rollback to savepoint b;
insert into sp_c values (303, 303);
rollback to savepoint a;
insert into sp_c values (304, 304);
rollback;
drop table sp_c, sp_p;
