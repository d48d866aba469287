--
-- Statements on an unqualified name in a schema on the search_path,
-- GRANT included
--
create schema app;
set search_path = app, public;
create table app.items (id serial primary key, name text);
insert into items (name) values ('a'), ('b');
alter table items add column price int;
comment on table items is 'things';
create index on items (name);
select pg_get_serial_sequence('items', 'id');
select currval('items_id_seq');
select setval('items_id_seq', 10);
insert into items (name) values ('c') returning id;
create view iv as select * from items;
select * from iv order by id;
grant select on items to public;
select relacl is not null from pg_class where oid = 'app.items'::regclass;
copy items (name) from stdin;
d
\.
select count(*) from items;
drop view iv;
alter table items rename to things;
select * from things order by id;
truncate things restart identity;
insert into things (name) values ('z') returning id;
reset search_path;
drop schema app cascade;
grant select on nosuch to public;
grant select on app.nosuch to public;
create temp table tg (x int);
grant select on tg to public;
create sequence gs;
grant usage on sequence gs to public;
grant usage on sequence nosuch to public;
drop sequence gs;
