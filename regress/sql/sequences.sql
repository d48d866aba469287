--
-- CREATE/ALTER/DROP SEQUENCE, nextval, currval, lastval, setval,
-- pg_get_serial_sequence, and the errors at the bounds
--
-- (objects of this file are named seq_*: tests of a group share the database)
--
-- currval and lastval before any nextval in this session
CREATE SEQUENCE seq_a;
SELECT currval('seq_a');
SELECT lastval();
SELECT nextval('seq_a'), nextval('seq_a'), currval('seq_a'), lastval();
SELECT last_value, is_called FROM seq_a;
-- options
CREATE SEQUENCE seq_opts AS smallint INCREMENT BY 3 MINVALUE 5 MAXVALUE 20 START WITH 6 CACHE 1 NO CYCLE;
SELECT nextval('seq_opts'), nextval('seq_opts'), nextval('seq_opts'), nextval('seq_opts'), nextval('seq_opts');
SELECT nextval('seq_opts');
SELECT currval('seq_opts');
CREATE SEQUENCE seq_cyc INCREMENT 2 MINVALUE 1 MAXVALUE 5 CYCLE;
SELECT nextval('seq_cyc'), nextval('seq_cyc'), nextval('seq_cyc'), nextval('seq_cyc'), nextval('seq_cyc');
CREATE SEQUENCE seq_desc INCREMENT BY -1;
SELECT nextval('seq_desc'), nextval('seq_desc');
CREATE SEQUENCE seq_desc2 INCREMENT -5 MINVALUE -12 MAXVALUE 0 START 0;
SELECT nextval('seq_desc2'), nextval('seq_desc2'), nextval('seq_desc2');
SELECT nextval('seq_desc2');
CREATE SEQUENCE seq_big AS bigint START 9223372036854775806;
SELECT nextval('seq_big'), nextval('seq_big');
SELECT nextval('seq_big');
CREATE SEQUENCE seq_int AS integer START 2147483647;
SELECT nextval('seq_int');
SELECT nextval('seq_int');
CREATE SEQUENCE IF NOT EXISTS seq_a;
CREATE SEQUENCE seq_a;
CREATE TEMP SEQUENCE seq_tmp;
SELECT nextval('seq_tmp');
DROP SEQUENCE seq_tmp;
-- invalid definitions
CREATE SEQUENCE seq_bad INCREMENT 0;
CREATE SEQUENCE seq_bad MINVALUE 10 MAXVALUE 5;
CREATE SEQUENCE seq_bad START 100 MAXVALUE 50;
CREATE SEQUENCE seq_bad START 1 MINVALUE 5;
CREATE SEQUENCE seq_bad AS text;
CREATE SEQUENCE seq_bad AS smallint MAXVALUE 100000;
CREATE SEQUENCE seq_bad CACHE 0;
CREATE SEQUENCE seq_bad INCREMENT 1 INCREMENT 2;
-- setval with two and three arguments
CREATE SEQUENCE seq_s;
SELECT setval('seq_s', 10);
SELECT nextval('seq_s');
SELECT setval('seq_s', 20, false);
SELECT nextval('seq_s');
SELECT setval('seq_s', 30, true), nextval('seq_s');
SELECT last_value, is_called FROM seq_s;
SELECT setval('seq_s', 0);
SELECT setval('seq_s', 9223372036854775807);
SELECT setval('seq_opts', 21);
SELECT setval('seq_opts', 4);
SELECT setval('seq_opts', 20), nextval('seq_opts');
SELECT setval('seq_s', NULL);
SELECT setval('seq_nosuch', 1);
-- ALTER SEQUENCE
CREATE SEQUENCE seq_alt;
SELECT nextval('seq_alt');
ALTER SEQUENCE seq_alt INCREMENT BY 10;
SELECT nextval('seq_alt');
ALTER SEQUENCE seq_alt RESTART;
SELECT nextval('seq_alt');
ALTER SEQUENCE seq_alt RESTART WITH 100;
SELECT nextval('seq_alt');
ALTER SEQUENCE seq_alt START WITH 50 RESTART;
SELECT nextval('seq_alt');
ALTER SEQUENCE seq_alt MAXVALUE 60;
SELECT nextval('seq_alt');
SELECT nextval('seq_alt');
ALTER SEQUENCE seq_alt MAXVALUE 40;
ALTER SEQUENCE seq_alt NO MAXVALUE CYCLE;
ALTER SEQUENCE seq_alt AS smallint;
ALTER SEQUENCE seq_alt INCREMENT 0;
ALTER SEQUENCE seq_nosuch RESTART;
ALTER SEQUENCE IF EXISTS seq_nosuch RESTART;
CREATE SEQUENCE seq_b MINVALUE 0 START 0;
SELECT nextval('seq_b');
ALTER SEQUENCE seq_b MINVALUE 5;
ALTER SEQUENCE seq_b MINVALUE 5 RESTART 5;
SELECT nextval('seq_b');
ALTER SEQUENCE seq_b CYCLE MAXVALUE 6;
SELECT nextval('seq_b'), nextval('seq_b'), nextval('seq_b');
ALTER SEQUENCE seq_b AS bigint NO CYCLE;
SELECT nextval('seq_b'), nextval('seq_b');
SELECT nextval('seq_b');
SELECT setval('seq_b', 6, false), currval('seq_b');
SELECT nextval('seq_b');
CREATE SEQUENCE seq_huge INCREMENT 9223372036854775807;
SELECT nextval('seq_huge'), nextval('seq_huge');
SELECT nextval('seq_huge');
CREATE SEQUENCE seq_small AS smallint INCREMENT -1;
SELECT nextval('seq_small');
CREATE SEQUENCE seq_bad START 0;
DROP SEQUENCE seq_b, seq_huge, seq_small;
-- nextval on something that is not a sequence, or does not exist
CREATE TABLE seq_tab (id serial PRIMARY KEY, v text);
SELECT nextval('seq_tab');
SELECT nextval('seq_nosuch');
SELECT currval('seq_nosuch');
SELECT nextval('public.seq_a');
SELECT nextval('"seq_a"');
SELECT nextval('SEQ_A');
SELECT nextval('');
SELECT nextval(NULL);
SELECT nextval('seq_nosuchschema.seq_a');
-- serial columns and pg_get_serial_sequence
SELECT pg_get_serial_sequence('seq_tab', 'id');
SELECT pg_get_serial_sequence('seq_tab', 'v');
SELECT pg_get_serial_sequence('seq_tab', 'nosuch');
SELECT pg_get_serial_sequence('seq_nosuch', 'id');
INSERT INTO seq_tab (v) VALUES ('a'), ('b');
SELECT currval('seq_tab_id_seq'), currval(pg_get_serial_sequence('seq_tab', 'id'));
SELECT lastval();
SELECT setval('seq_tab_id_seq', 100);
INSERT INTO seq_tab (v) VALUES ('c') RETURNING id;
SELECT nextval('seq_tab_id_seq');
INSERT INTO seq_tab (v) VALUES ('d') RETURNING id;
SELECT last_value, is_called FROM seq_tab_id_seq;
CREATE TABLE seq_ident (id bigint GENERATED ALWAYS AS IDENTITY (START 7), v text);
SELECT pg_get_serial_sequence('seq_ident', 'id');
INSERT INTO seq_ident (v) VALUES ('x') RETURNING id;
SELECT setval(pg_get_serial_sequence('seq_ident', 'id'), 70);
INSERT INTO seq_ident (v) VALUES ('y') RETURNING id;
-- a column default of nextval of an existing sequence
CREATE SEQUENCE seq_for_col START 1000;
CREATE TABLE seq_tab2 (n integer DEFAULT nextval('seq_for_col'), v text);
INSERT INTO seq_tab2 (v) VALUES ('a'), ('b') RETURNING n, v;
SELECT nextval('seq_for_col');
-- OWNED BY
CREATE SEQUENCE seq_owned OWNED BY seq_tab2.n;
CREATE SEQUENCE seq_owned_bad OWNED BY seq_nosuch.n;
CREATE SEQUENCE seq_owned_bad2 OWNED BY seq_tab2.nosuch;
ALTER SEQUENCE seq_for_col OWNED BY NONE;
CREATE SEQUENCE seq_owned2;
ALTER SEQUENCE seq_owned2 OWNED BY seq_tab2.v;
DROP TABLE seq_tab2;
SELECT nextval('seq_owned');
SELECT nextval('seq_owned2');
SELECT nextval('seq_for_col');
-- nextval is not rolled back
BEGIN;
SELECT nextval('seq_a');
ROLLBACK;
SELECT nextval('seq_a');
BEGIN;
INSERT INTO seq_tab (v) VALUES ('rolled back') RETURNING id;
ROLLBACK;
INSERT INTO seq_tab (v) VALUES ('kept') RETURNING id;
SELECT * FROM seq_tab ORDER BY id;
-- DROP SEQUENCE
DROP SEQUENCE seq_nosuch;
DROP SEQUENCE IF EXISTS seq_nosuch;
DROP SEQUENCE seq_tab_id_seq;
DROP SEQUENCE seq_tab;
DROP TABLE seq_a;
DROP SEQUENCE seq_a, seq_opts, seq_cyc, seq_desc, seq_desc2, seq_big, seq_int, seq_s, seq_alt, seq_for_col;
SELECT nextval('seq_a');
DROP TABLE seq_tab, seq_ident;
