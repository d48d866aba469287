--
-- Transactions over tables: DDL and DML inside BEGIN/COMMIT/ROLLBACK,
-- savepoints, failed blocks (25P02), statement atomicity, and sequences
-- that are not rolled back
--
-- (objects of this file are named txd_*: tests of a group share the database)
--
-- CREATE TABLE rolled back: the table disappears
BEGIN;
CREATE TABLE txd_gone (id serial PRIMARY KEY, v text);
INSERT INTO txd_gone (v) VALUES ('a');
SELECT * FROM txd_gone;
ROLLBACK;
SELECT * FROM txd_gone;
CREATE TABLE txd_gone (id integer);
DROP TABLE txd_gone;
-- CREATE TABLE committed
BEGIN;
CREATE TABLE txd_t (id serial PRIMARY KEY, v text);
INSERT INTO txd_t (v) VALUES ('a'), ('b');
COMMIT;
SELECT * FROM txd_t ORDER BY id;
-- DROP TABLE rolled back: the table and its rows come back
BEGIN;
DROP TABLE txd_t;
SELECT * FROM txd_t;
ROLLBACK;
SELECT * FROM txd_t ORDER BY id;
INSERT INTO txd_t (v) VALUES ('c') RETURNING id;
-- CREATE SCHEMA, INDEX and SEQUENCE rolled back
BEGIN;
CREATE SCHEMA txd_schema;
CREATE TABLE txd_schema.t (a integer);
CREATE UNIQUE INDEX txd_t_v ON txd_t (v);
CREATE SEQUENCE txd_seq_gone;
ROLLBACK;
SELECT * FROM txd_schema.t;
INSERT INTO txd_t (v) VALUES ('a') RETURNING id, v;
SELECT nextval('txd_seq_gone');
-- TRUNCATE rolled back
BEGIN;
TRUNCATE txd_t;
SELECT count(*) FROM txd_t;
ROLLBACK;
SELECT count(*) FROM txd_t;
-- DML rolled back and committed
BEGIN;
UPDATE txd_t SET v = 'changed';
DELETE FROM txd_t WHERE id = 1;
INSERT INTO txd_t (v) VALUES ('new');
SELECT * FROM txd_t ORDER BY id;
ROLLBACK;
SELECT * FROM txd_t ORDER BY id;
BEGIN;
UPDATE txd_t SET v = upper(v) WHERE id = 1;
COMMIT;
SELECT * FROM txd_t ORDER BY id;
-- savepoints around DML
BEGIN;
INSERT INTO txd_t (id, v) VALUES (10, 'ten');
SAVEPOINT sp1;
INSERT INTO txd_t (id, v) VALUES (11, 'eleven');
DELETE FROM txd_t WHERE id = 1;
SELECT id FROM txd_t ORDER BY id;
ROLLBACK TO SAVEPOINT sp1;
SELECT id FROM txd_t ORDER BY id;
SAVEPOINT sp2;
UPDATE txd_t SET v = 'in sp2' WHERE id = 10;
RELEASE SAVEPOINT sp2;
COMMIT;
SELECT * FROM txd_t ORDER BY id;
-- an error after a savepoint: ROLLBACK TO recovers the block
BEGIN;
INSERT INTO txd_t (id, v) VALUES (20, 'twenty');
SAVEPOINT sp;
INSERT INTO txd_t (id, v) VALUES (20, 'duplicate');
SELECT 1;
ROLLBACK TO sp;
INSERT INTO txd_t (id, v) VALUES (21, 'twenty-one');
COMMIT;
SELECT id, v FROM txd_t WHERE id >= 20 ORDER BY id;
-- DDL inside a savepoint
BEGIN;
SAVEPOINT s;
CREATE TABLE txd_sp (a integer);
INSERT INTO txd_sp VALUES (1);
ROLLBACK TO s;
SELECT * FROM txd_sp;
ROLLBACK;
BEGIN;
SAVEPOINT s;
DROP TABLE txd_t;
ROLLBACK TO s;
SELECT count(*) FROM txd_t;
COMMIT;
-- an error aborts the block: 25P02 until ROLLBACK, and nothing is kept
BEGIN;
INSERT INTO txd_t (id, v) VALUES (30, 'thirty');
INSERT INTO txd_t (id, v) VALUES (1, 'duplicate');
INSERT INTO txd_t (id, v) VALUES (31, 'thirty-one');
SELECT * FROM txd_t;
CREATE TABLE txd_never (a integer);
COMMIT;
SELECT id FROM txd_t WHERE id >= 30;
SELECT * FROM txd_never;
-- DDL errors abort the block too
BEGIN;
CREATE TABLE txd_t (a integer);
INSERT INTO txd_t (v) VALUES ('x');
ROLLBACK;
BEGIN;
DROP TABLE txd_nosuch;
SELECT 1;
ROLLBACK;
-- a failed statement outside a block leaves nothing behind
INSERT INTO txd_t (id, v) VALUES (40, 'forty'), (41, 'forty-one'), (1, 'duplicate');
SELECT id FROM txd_t WHERE id >= 40;
UPDATE txd_t SET id = 10 WHERE id IN (1, 2);
SELECT id FROM txd_t ORDER BY id;
DELETE FROM txd_t WHERE 1 / (id - 10) > 0;
SELECT count(*) FROM txd_t;
-- several statements in one query string are one transaction
INSERT INTO txd_t (id, v) VALUES (50, 'fifty') \; INSERT INTO txd_t (id, v) VALUES (1, 'dup') \; SELECT 'not reached';
SELECT id FROM txd_t WHERE id = 50;
-- nextval and serial values are not rolled back
CREATE SEQUENCE txd_seq;
BEGIN;
SELECT nextval('txd_seq');
SELECT nextval('txd_seq');
ROLLBACK;
SELECT nextval('txd_seq');
BEGIN;
SELECT setval('txd_seq', 100);
ROLLBACK;
SELECT nextval('txd_seq');
BEGIN;
SELECT nextval('txd_seq');
SELECT 1 / 0;
ROLLBACK;
SELECT currval('txd_seq');
SELECT nextval('txd_seq');
CREATE TABLE txd_s (id serial PRIMARY KEY, v text);
INSERT INTO txd_s (v) VALUES ('first') RETURNING id;
BEGIN;
INSERT INTO txd_s (v) VALUES ('rolled back') RETURNING id;
ROLLBACK;
INSERT INTO txd_s (v) VALUES ('kept') RETURNING id;
BEGIN;
INSERT INTO txd_s (v) VALUES ('before the error') RETURNING id;
SELECT 1 / 0;
ROLLBACK;
INSERT INTO txd_s (v) VALUES ('kept too') RETURNING id;
SELECT * FROM txd_s ORDER BY id;
-- a sequence created in a rolled-back block is gone, its values with it
BEGIN;
CREATE SEQUENCE txd_seq2;
SELECT nextval('txd_seq2');
ROLLBACK;
SELECT nextval('txd_seq2');
-- a table created and dropped in one block
BEGIN;
CREATE TABLE txd_tmp (id serial, v text);
INSERT INTO txd_tmp (v) VALUES ('x');
DROP TABLE txd_tmp;
COMMIT;
SELECT * FROM txd_tmp;
DROP TABLE txd_t, txd_s;
DROP SEQUENCE txd_seq;
