-- information_schema.sequences: the options of each sequence's counter, as
-- text; identity columns' sequences are internal and left out.
create schema sq;
create sequence s1;
create sequence sq.s2 as smallint increment -3 minvalue -300 maxvalue 10 start 5 cycle;
create sequence s3 as integer start 100 increment 7;
create table st (id serial, b bigint generated always as identity (start 50));
select * from information_schema.sequences where sequence_schema in ('public', 'sq') order by sequence_schema, sequence_name;
select nextval('s1'), nextval('sq.s2');
select sequence_name, start_value from information_schema.sequences where sequence_name = 's1';
drop table st; drop sequence s1, sq.s2, s3; drop schema sq;
