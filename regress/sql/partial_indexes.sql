-- Partial indexes (CREATE INDEX ... WHERE): a unique one compares only the
-- rows its condition holds for; shown by pg_get_indexdef, pg_index.indpred
-- and \d; kept through RENAME, DROP and ALTER COLUMN; ON CONFLICT infers
-- one only from a WHERE with its condition.
create table pi (id serial primary key, a int, b text, d timestamptz, active boolean default true);
create index pi1 on pi (a) where (select true);
create index pi2 on pi (a) where sum(a) > 0;
create index pi3 on pi (a) where d > now();
create index pi4 on pi (a) where a + 1;
create index pi5 on pi (a) where nosuch > 0;
create unique index pi6 on pi (a) where b is null;
create index pi7 on pi (lower(b)) where a > 0 and b <> 'x';
create unique index pi8 on pi (b) where active;
select pg_get_indexdef('pi6'::regclass), pg_get_indexdef('pi7'::regclass), pg_get_indexdef('pi8'::regclass);
select indexrelid::regclass, pg_get_expr(indpred, indrelid), pg_get_expr(indpred, indrelid, true) from pg_index where indrelid = 'pi'::regclass order by indexrelid::regclass::text;
\d pi
insert into pi (a, b) values (1, null), (1, 'x'), (1, 'y');
insert into pi (a, b) values (1, null);
insert into pi (a, b) values (2, null), (2, 'x');
insert into pi (a, b, active) values (3, 'x', false), (4, 'x', false);
insert into pi (a, b) values (5, 'x');
update pi set b = null where a = 2 and b = 'x';
update pi set active = true where a = 3;
insert into pi (a, b) values (1, null) on conflict do nothing;
select a, b, active from pi order by id;
create unique index pi9 on pi (b) where a > 0;
alter table pi rename column a to aa;
\d pi
insert into pi (aa, b) values (2, null);
alter table pi drop column active;
\d pi
alter table pi alter column aa type bigint;
insert into pi (aa, b) values (2, null);
drop table pi;
create table pc (id int primary key, email text, deleted boolean not null default false);
create unique index pc_live_email on pc (email) where not deleted;
insert into pc values (1, 'a@x', false), (2, 'a@x', true), (3, 'a@x', true);
insert into pc values (4, 'a@x', false);
insert into pc values (4, 'a@x', false) on conflict do nothing;
insert into pc values (4, 'a@x', false) on conflict (email) do nothing;
insert into pc values (4, 'a@x', false) on conflict (email) where not deleted do nothing;
insert into pc values (4, 'a@x', false) on conflict (email) where not deleted do update set id = pc.id + 100 returning *;
update pc set deleted = true where id = 1;
insert into pc values (5, 'a@x', false) returning *;
update pc set deleted = false where id = 2;
select * from pc order by id;
drop table pc;
