--
-- Defaults that draw from another table's sequence (nextval) depend on
-- it: dropping the sequence, its table or its column reports them, and
-- CASCADE takes the defaults off.
--
CREATE TABLE src (id serial PRIMARY KEY, v text);
CREATE TABLE withdef (LIKE src INCLUDING DEFAULTS);
CREATE TABLE other (n int DEFAULT nextval('src_id_seq'), m int);
INSERT INTO src (v) VALUES ('a');
INSERT INTO other (m) VALUES (1);
DROP TABLE src;
ALTER TABLE src DROP COLUMN id;
CREATE VIEW vv AS SELECT * FROM src;
DROP TABLE src;
DROP TABLE src CASCADE;
\d withdef
\d other
INSERT INTO withdef (v) VALUES ('a');
INSERT INTO other (m) VALUES (2);
SELECT * FROM other ORDER BY m;
-- A standalone sequence shared by two tables.
CREATE SEQUENCE s;
CREATE TABLE t1 (id int DEFAULT nextval('s'));
CREATE TABLE t2 (id int DEFAULT nextval('s'));
INSERT INTO t1 DEFAULT VALUES;
INSERT INTO t2 DEFAULT VALUES;
SELECT * FROM t1 UNION ALL SELECT * FROM t2 ORDER BY 1;
DROP SEQUENCE s;
DROP SEQUENCE s CASCADE;
\d t2
-- An identity column's sequence goes with its table.
CREATE TABLE t3 (id int GENERATED ALWAYS AS IDENTITY, x int);
CREATE VIEW v3 AS SELECT * FROM t3;
DROP TABLE t3 CASCADE;
-- Dropping the column that owns the sequence.
CREATE TABLE t4 (id serial, x int);
CREATE TABLE t5 (id int DEFAULT nextval('t4_id_seq'));
ALTER TABLE t4 DROP COLUMN id;
ALTER TABLE t4 DROP COLUMN id CASCADE;
\d t5
-- A sequence in a schema being dropped.
CREATE SCHEMA sc;
CREATE TABLE sc.a (id serial);
CREATE TABLE t6 (id int DEFAULT nextval('sc.a_id_seq'));
DROP SCHEMA sc;
DROP SCHEMA sc CASCADE;
\d t6
DROP TABLE withdef, other, t1, t2, t4, t5, t6;
