-- unique indexes whose NULLs are not distinct, and index access methods
CREATE TABLE ix (a int, b text, c int);
CREATE UNIQUE INDEX ix_a_nnd ON ix (a) NULLS NOT DISTINCT;
INSERT INTO ix VALUES (NULL, 'x', 1);
INSERT INTO ix VALUES (NULL, 'y', 2);
INSERT INTO ix VALUES (1, 'z', 3);
INSERT INTO ix VALUES (1, 'w', 4);
SELECT * FROM ix ORDER BY c;
CREATE UNIQUE INDEX ix_b_c ON ix (b, c) NULLS NOT DISTINCT;
INSERT INTO ix VALUES (2, NULL, NULL);
INSERT INTO ix VALUES (3, NULL, NULL);
INSERT INTO ix VALUES (4, NULL, 5);
CREATE UNIQUE INDEX ix_c_nd ON ix (c) NULLS DISTINCT;
SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'ix' ORDER BY indexname;
SELECT pg_get_indexdef('ix_a_nnd'::regclass);
SELECT indnullsnotdistinct FROM pg_index WHERE indexrelid = 'ix_a_nnd'::regclass;
\d ix
-- building one over data with two NULLs fails
CREATE TABLE ix2 (a int);
INSERT INTO ix2 VALUES (NULL), (NULL), (1);
CREATE UNIQUE INDEX ix2_a ON ix2 (a) NULLS NOT DISTINCT;
CREATE UNIQUE INDEX ix2_a ON ix2 (a);
DROP TABLE ix2;
-- as a constraint
CREATE TABLE ixc (a int UNIQUE NULLS NOT DISTINCT, b int, UNIQUE NULLS NOT DISTINCT (b));
INSERT INTO ixc VALUES (NULL, NULL);
INSERT INTO ixc VALUES (NULL, 1);
INSERT INTO ixc VALUES (1, NULL);
SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'ixc'::regclass ORDER BY conname;
SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'ixc' ORDER BY indexname;
\d ixc
ALTER TABLE ixc ADD CONSTRAINT ixc_ab UNIQUE NULLS NOT DISTINCT (a, b);
DROP TABLE ixc;
-- hash indexes: no uniqueness, one column, no ordering
CREATE INDEX ix_b_hash ON ix USING hash (b);
SELECT indexdef FROM pg_indexes WHERE indexname = 'ix_b_hash';
SELECT pg_get_indexdef('ix_b_hash'::regclass);
SELECT amname FROM pg_class c JOIN pg_am a ON a.oid = c.relam WHERE c.relname IN ('ix_b_hash', 'ix_a_nnd') ORDER BY c.relname;
INSERT INTO ix VALUES (7, 'x', 7), (8, 'x', 8);
SELECT a FROM ix WHERE b = 'x' ORDER BY a;
CREATE UNIQUE INDEX ix_hash_u ON ix USING hash (a);
CREATE INDEX ix_hash_2 ON ix USING hash (a, b);
CREATE INDEX ix_hash_desc ON ix USING hash (a DESC);
CREATE INDEX ix_hash_nulls ON ix USING hash (a NULLS FIRST);
CREATE INDEX ix_btree ON ix USING btree (c);
CREATE INDEX ix_btree_upper ON ix USING BTREE (a);
SELECT indexdef FROM pg_indexes WHERE indexname IN ('ix_btree', 'ix_btree_upper') ORDER BY indexname;
\d ix
-- an access method that does not exist (gist, gin, brin and spgist, which
-- Kova does not build, fail with 0A000 instead: tests/ has them)
CREATE INDEX ix_nosuch ON ix USING nosuch (a);
DROP TABLE ix;
