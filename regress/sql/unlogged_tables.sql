--
-- UNLOGGED tables (kept as durably as any table; PostgreSQL would empty them
-- after a crash), SET LOGGED / UNLOGGED with PostgreSQL's foreign key rules,
-- and SET TABLESPACE / SET ACCESS METHOD to where a table already is.
--
create unlogged table ut_u (id serial primary key, a int);
create index ut_u_a on ut_u (a);
select relname, relpersistence from pg_class where relname like 'ut_u%' order by 1;
create table ut_l (id int primary key, u int references ut_u);
create unlogged table ut_u2 (id int references ut_l);
alter table ut_u set logged;
select relname, relpersistence from pg_class where relname like 'ut_u%' order by 1;
alter table ut_u set unlogged;
create table ut_l2 (id int primary key);
create unlogged table ut_u3 (id int references ut_l2);
alter table ut_l2 set unlogged;
alter table ut_u3 set logged;
alter table ut_u3 set logged;
alter table ut_u3 set tablespace pg_default;
alter table ut_u3 set tablespace nope;
alter table ut_u3 set tablespace pg_global;
alter table ut_u3 set access method heap;
alter table ut_u3 set access method btree;
alter table ut_u3 set access method nope;
\d ut_u3
-- temporary tables and foreign keys
CREATE TEMP TABLE ut_tmp (id int PRIMARY KEY);
CREATE TABLE ut_p (id int REFERENCES ut_tmp);
CREATE UNLOGGED TABLE ut_u4 (id int REFERENCES ut_tmp);
CREATE TEMP TABLE ut_tmp2 (id int REFERENCES ut_l2);
CREATE TABLE ut_p2 (id int);
ALTER TABLE ut_p2 ADD FOREIGN KEY (id) REFERENCES ut_u3 (id);
ALTER TABLE ut_tmp SET LOGGED;
DROP TABLE ut_u, ut_u3, ut_l2, ut_p2, ut_tmp;
