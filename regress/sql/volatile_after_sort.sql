-- Volatile functions of the select list that are not sort keys run after
-- ORDER BY and LIMIT, as PostgreSQL plans them: nextval() numbers the rows
-- in their output order and is called for the returned rows only.
CREATE TABLE vas_src (a int, b text);
INSERT INTO vas_src VALUES (30, 'c'), (10, 'a'), (50, 'e'), (20, 'b'), (40, 'd');
CREATE SEQUENCE vas_seq;
SELECT nextval('vas_seq') AS n, a FROM vas_src ORDER BY a;
SELECT nextval('vas_seq') AS n, b FROM vas_src ORDER BY a DESC LIMIT 2;
SELECT currval('vas_seq');
SELECT a, nextval('vas_seq') AS n FROM vas_src ORDER BY b LIMIT 2 OFFSET 2;
SELECT currval('vas_seq');
SELECT nextval('vas_seq') AS n, a FROM vas_src ORDER BY a OFFSET 3;
SELECT nextval('vas_seq') AS n, a FROM vas_src ORDER BY a LIMIT NULL OFFSET 4;
SELECT currval('vas_seq');
-- A volatile item that is a sort key runs before the sort.
SELECT setval('vas_seq', 100);
SELECT nextval('vas_seq') AS n, a FROM vas_src ORDER BY 1 DESC;
-- Without ORDER BY it runs as the rows are read.
SELECT count(*) FROM (SELECT nextval('vas_seq') FROM vas_src LIMIT 2) s;
SELECT currval('vas_seq');
-- In a subquery, and feeding an INSERT: the numbering follows ORDER BY.
SELECT * FROM (SELECT nextval('vas_seq') AS n, b FROM vas_src ORDER BY b DESC LIMIT 3) s;
CREATE TABLE vas_dst (id bigint, a int);
INSERT INTO vas_dst SELECT nextval('vas_seq'), a FROM vas_src ORDER BY a;
SELECT * FROM vas_dst ORDER BY id;
-- DISTINCT keeps every item before the sort.
SELECT setval('vas_seq', 1000);
SELECT DISTINCT nextval('vas_seq') > 0 AS positive FROM vas_src ORDER BY 1;
SELECT currval('vas_seq');
DROP TABLE vas_src, vas_dst;
DROP SEQUENCE vas_seq;
