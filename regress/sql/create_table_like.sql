--
-- CREATE TABLE ... (LIKE source [INCLUDING | EXCLUDING ...])
--
CREATE TABLE src (
  id serial PRIMARY KEY,
  code varchar(10) NOT NULL UNIQUE,
  qty int DEFAULT 5 CHECK (qty >= 0),
  price numeric(8,2),
  note text DEFAULT 'none',
  CONSTRAINT note_short CHECK (length(note) < 20)
);
CREATE INDEX src_note_idx ON src (note DESC);
CREATE UNIQUE INDEX src_qty_price ON src (qty, price) NULLS NOT DISTINCT;
COMMENT ON COLUMN src.code IS 'the code';
COMMENT ON INDEX src_note_idx IS 'notes';
INSERT INTO src (code, price) VALUES ('x', 1);
-- Columns, types and NOT NULL only; no rows.
CREATE TABLE plain (LIKE src);
\d plain
SELECT count(*) FROM plain;
INSERT INTO plain (code) VALUES ('a');
INSERT INTO plain (id, code) VALUES (1, 'a') RETURNING *;
-- Defaults: the copy shares the source's sequence.
CREATE TABLE withdef (LIKE src INCLUDING DEFAULTS);
\d withdef
INSERT INTO withdef (code) VALUES ('a') RETURNING *;
INSERT INTO src (code, price) VALUES ('y', 1) RETURNING id;
SELECT pg_get_serial_sequence('withdef', 'id');
-- Everything: keys and indexes get new names, CHECKs keep theirs.
CREATE TABLE everything (LIKE src INCLUDING ALL);
\d everything
SELECT col_description('everything'::regclass, 2),
       obj_description('everything_note_idx'::regclass, 'pg_class');
INSERT INTO everything (code, price) VALUES ('b', 2) RETURNING *;
INSERT INTO everything (code, price) VALUES ('b', 2);
INSERT INTO everything (code, price) VALUES ('c', 2);
INSERT INTO everything (code, price, qty) VALUES ('d', 3, -1);
INSERT INTO everything (code, note) VALUES ('e', repeat('n', 30));
-- LIKE among other columns and constraints, several options.
CREATE TABLE partial_copy (extra int, LIKE src INCLUDING CONSTRAINTS INCLUDING INDEXES
                   EXCLUDING COMMENTS, more text, UNIQUE (more));
\d partial_copy
SELECT col_description('partial_copy'::regclass, 3);
-- Identity: a new sequence with the same options, starting afresh.
CREATE TABLE ident (id int GENERATED ALWAYS AS IDENTITY (START 100 INCREMENT 10),
                    v text);
INSERT INTO ident (v) VALUES ('x');
CREATE TABLE ident2 (LIKE ident INCLUDING IDENTITY);
\d ident2
INSERT INTO ident2 (v) VALUES ('a'), ('b') RETURNING *;
INSERT INTO ident2 (id, v) VALUES (1, 'c');
SELECT pg_get_serial_sequence('ident2', 'id');
SELECT last_value, is_called FROM ident_id_seq;
SELECT last_value, is_called FROM ident2_id_seq;
CREATE TABLE ident3 (LIKE ident);
\d ident3
-- From a view: its columns.
CREATE VIEW v AS SELECT id, code, qty * 2 AS dbl FROM src;
CREATE TABLE fromview (LIKE v INCLUDING ALL);
\d fromview
-- Foreign keys are not copied.
CREATE TABLE ref (id int PRIMARY KEY, s int REFERENCES src(id));
CREATE TABLE ref2 (LIKE ref INCLUDING ALL);
\d ref2
-- Schema-qualified source and target.
CREATE SCHEMA other;
CREATE TABLE other.copy (LIKE public.src INCLUDING INDEXES);
\d other.copy
-- Errors.
CREATE TABLE dup (id int, LIKE src);
CREATE TABLE twopk (LIKE src INCLUDING INDEXES, PRIMARY KEY (code));
CREATE TABLE nosuch (LIKE missing);
CREATE SEQUENCE sq;
CREATE TABLE fromseq (LIKE sq);
-- Transactional, as any CREATE TABLE.
BEGIN;
CREATE TABLE txn (LIKE src INCLUDING ALL);
ROLLBACK;
SELECT count(*) FROM pg_class WHERE relname LIKE 'txn%';
DROP SCHEMA other CASCADE;
DROP TABLE plain, withdef, everything, partial_copy, ident, ident2, ident3, fromview,
  ref, ref2;
DROP VIEW v;
DROP TABLE src;
DROP SEQUENCE sq;
