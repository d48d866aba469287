-- REINDEX: the indexes of a table, of an index's table, of a schema's or the
-- database's tables are rebuilt (SQLite's REINDEX); PostgreSQL's errors.
create schema reidx;
create table reidx.reidx_t (id serial primary key, v text unique);
create index reidx_v on reidx.reidx_t (lower(v));
insert into reidx.reidx_t (v) values ('a'), ('B');
reindex table reidx.reidx_t;
reindex index reidx.reidx_v;
reindex (verbose false) table reidx.reidx_t;
reindex table concurrently reidx.reidx_t;
reindex schema reidx;
reindex table nosuch;
reindex index reidx.nosuch;
reindex schema nosuch;
reindex database postgres;
reindex database other;
reindex system postgres;
begin;
reindex table reidx.reidx_t;
reindex table concurrently reidx.reidx_t;
rollback;
begin;
reindex database postgres;
rollback;
set search_path = reidx;
reindex table reidx_t;
select * from reidx.reidx_t where lower(v) = 'b';
reindex (foo) table reidx_t;
drop schema reidx cascade;
