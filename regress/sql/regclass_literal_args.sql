--
-- Size functions take a regclass: a string literal names the relation.
--
CREATE TABLE sized (id int PRIMARY KEY, v text);
SELECT pg_total_relation_size('sized') >= pg_relation_size('sized') AS total_covers,
       pg_table_size('public.sized') >= 0 AS table_size,
       pg_indexes_size('sized') >= 0 AS indexes_size;
SELECT pg_relation_size('nosuch');
SELECT pg_size_pretty(pg_total_relation_size('sized')) IS NOT NULL;
DROP TABLE sized;
