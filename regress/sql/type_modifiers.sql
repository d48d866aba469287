-- Type modifiers: PostgreSQL's range checks for char, varchar and numeric,
-- and numeric's negative scale and scale above the precision (PostgreSQL 15).
select ''::char(0);
select 'abc'::varchar(0);
select 1::numeric(1001,0);
select 1::numeric(0,0);
select 12.345::numeric(3,-1);
select 12345.6::numeric(3,-2);
select 0.00123::numeric(3,5);
select 1::numeric(3,-1001);
select 1::numeric(3,1001);
create table tm (a numeric(5,-2), b varchar(10485761));
create table tm (a numeric(5,-2));
insert into tm values (123456), (149.9), (-151);
select * from tm;
\d tm
drop table tm;
