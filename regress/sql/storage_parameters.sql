--
-- Storage parameters (reloptions), per-column statistics targets, storage
-- modes and options, and REPLICA IDENTITY: validated as PostgreSQL does and
-- kept in the catalog (pg_class, pg_attribute, pg_index, \d+, pg_dump).
--

-- Tables: WITH (...) at creation
CREATE TABLE sp_t (id serial PRIMARY KEY, a text, b int, c numeric)
  WITH (fillfactor = 70, autovacuum_enabled = false);
SELECT relname, reloptions FROM pg_class WHERE relname = 'sp_t';
CREATE TABLE sp_bad (a int) WITH (fillfactor);
CREATE TABLE sp_bad (a int) WITH (fillfactor = 5);
CREATE TABLE sp_bad (a int) WITH (foo = 1);
CREATE TABLE sp_bad (a int) WITH (autovacuum_enabled = 'maybe');
CREATE TABLE sp_bad (a int) WITH (oids = true);
CREATE TABLE sp_bad (a int) WITH (fillfactor = 'abc');
CREATE TABLE sp_bad (a int) WITH (autovacuum_vacuum_scale_factor = 200);
CREATE TABLE sp_bad (a int) WITH (autovacuum_vacuum_cost_delay = -1);
CREATE TABLE sp_bad (a int) WITH (parallel_workers = '12abc');
CREATE TABLE sp_bad (a int) WITH (vacuum_index_cleanup = maybe);
CREATE TABLE sp_bad (a int) WITH (fillfactor = 20, fillfactor = 30);
CREATE TABLE sp_bad (a int) WITH (nope.fillfactor = 20);
CREATE TABLE sp_bad (a int) WITH (autovacuum_freeze_max_age = 10);
CREATE TABLE sp_bad (a int) WITH (autovacuum_enabled = 'o');
-- values are kept as written
CREATE TABLE sp_w (a int) WITH (oids = false);
CREATE TABLE sp_v (a int) WITH (FillFactor = '80', Autovacuum_Enabled = OFF,
  vacuum_index_cleanup = auto, autovacuum_vacuum_scale_factor = 0.2,
  parallel_workers = '0x10', toast_tuple_target = 1e3, user_catalog_table = yes,
  log_autovacuum_min_duration = -1, vacuum_truncate);
SELECT relname, reloptions FROM pg_class WHERE relname IN ('sp_w', 'sp_v')
  ORDER BY relname;
CREATE TABLE sp_s (a int) WITH (parallel_workers = ' 12 ', fillfactor = 70.5);
SELECT reloptions FROM pg_class WHERE relname = 'sp_s';

-- ALTER TABLE SET / RESET
ALTER TABLE sp_t SET (fillfactor = 90, parallel_workers = 4);
SELECT reloptions FROM pg_class WHERE relname = 'sp_t';
ALTER TABLE sp_t RESET (autovacuum_enabled, nonexistent);
SELECT reloptions FROM pg_class WHERE relname = 'sp_t';
ALTER TABLE sp_t RESET (fillfactor, parallel_workers);
SELECT reloptions IS NULL AS no_options FROM pg_class WHERE relname = 'sp_t';
ALTER TABLE sp_t SET (fillfactor = 101);
ALTER TABLE sp_t SET (parallel_workers = 'x');
ALTER TABLE sp_t RESET (fillfactor = 10);
ALTER TABLE sp_t SET (fillfactor = 60), SET (autovacuum_analyze_threshold = 10);
SELECT reloptions FROM pg_class WHERE relname = 'sp_t';
BEGIN;
ALTER TABLE sp_t SET (fillfactor = 11);
ROLLBACK;
SELECT reloptions FROM pg_class WHERE relname = 'sp_t';

-- Indexes and key constraints
CREATE INDEX sp_t_b ON sp_t (b) WITH (fillfactor = 50, deduplicate_items = off);
CREATE INDEX sp_t_c ON sp_t (c) WITH (autovacuum_enabled = off);
CREATE INDEX sp_t_h ON sp_t USING hash (a) WITH (deduplicate_items = off);
CREATE INDEX sp_t_h ON sp_t USING hash (a) WITH (fillfactor = 75);
ALTER TABLE sp_t ADD CONSTRAINT sp_t_b_key UNIQUE (b) WITH (fillfactor = 40);
SELECT relname, reloptions FROM pg_class
  WHERE relname IN ('sp_t_b', 'sp_t_h', 'sp_t_b_key', 'sp_t_pkey')
  ORDER BY relname;
ALTER INDEX sp_t_b SET (fillfactor = 60);
ALTER INDEX sp_t_b RESET (deduplicate_items);
ALTER INDEX sp_t_b SET (autovacuum_enabled = off);
ALTER INDEX sp_t_h SET (fillfactor = 101);
SELECT pg_get_indexdef('sp_t_b'::regclass), pg_get_indexdef('sp_t_h'::regclass);
CREATE TABLE sp_k (a int PRIMARY KEY WITH (fillfactor = 50), b int,
  UNIQUE (b) WITH (fillfactor = 40)) WITH (fillfactor = 80);
SELECT relname, reloptions FROM pg_class WHERE relname LIKE 'sp_k%'
  ORDER BY relname;
CREATE TABLE sp_k2 (a int PRIMARY KEY WITH (foo = 1));
CREATE INDEX sp_k_e ON sp_k ((a + b));
ALTER INDEX sp_k_e ALTER COLUMN 1 SET STATISTICS 100;
ALTER INDEX sp_k_pkey ALTER COLUMN 1 SET STATISTICS 100;
ALTER INDEX sp_k_e ALTER COLUMN 2 SET STATISTICS 100;
SELECT attname, attstattarget FROM pg_attribute
  WHERE attrelid = 'sp_k_e'::regclass;
-- sequences and views have no such parameters here
CREATE SEQUENCE sp_seq;
ALTER SEQUENCE sp_seq SET (fillfactor = 10);
CREATE VIEW sp_view AS SELECT * FROM sp_k;
ALTER VIEW sp_view SET (fillfactor = 50);

-- ALTER COLUMN SET STATISTICS / SET STORAGE / SET (...)
ALTER TABLE sp_t ALTER COLUMN a SET STATISTICS 500;
ALTER TABLE sp_t ALTER COLUMN b SET STATISTICS 20000;
ALTER TABLE sp_t ALTER COLUMN b SET STATISTICS -5;
ALTER TABLE sp_t ALTER COLUMN 2 SET STATISTICS 10;
ALTER TABLE sp_t ALTER COLUMN a SET STORAGE EXTERNAL;
ALTER TABLE sp_t ALTER COLUMN b SET STORAGE EXTERNAL;
ALTER TABLE sp_t ALTER COLUMN b SET STORAGE foo;
ALTER TABLE sp_t ALTER COLUMN b SET STORAGE PLAIN;
ALTER TABLE sp_t ALTER COLUMN c SET STORAGE MAIN;
ALTER TABLE sp_t ALTER COLUMN nope SET STORAGE MAIN;
ALTER TABLE sp_t ALTER COLUMN c SET (n_distinct = -0.5);
ALTER TABLE sp_t ALTER COLUMN c SET (n_distinct = -2);
ALTER TABLE sp_t ALTER COLUMN c SET (foo = 1);
ALTER TABLE sp_t ALTER COLUMN a SET (n_distinct_inherited = 5, n_distinct = 3);
ALTER TABLE sp_t ALTER COLUMN a RESET (n_distinct);
SELECT attname, attstattarget, attstorage, attoptions FROM pg_attribute
  WHERE attrelid = 'sp_t'::regclass AND attnum > 0 ORDER BY attnum;
\d+ sp_t
\d+ sp_t_b
-- a new type brings its own storage; the statistics target stays
ALTER TABLE sp_t ALTER COLUMN c TYPE text;
ALTER TABLE sp_t ALTER COLUMN b SET STATISTICS -1;
SELECT attname, attstattarget, attstorage FROM pg_attribute
  WHERE attrelid = 'sp_t'::regclass AND attnum > 0 ORDER BY attnum;
-- LIKE copies index parameters (INCLUDING INDEXES) and storage (INCLUDING
-- STORAGE), not the table's parameters
CREATE TABLE sp_like (LIKE sp_t INCLUDING ALL);
SELECT relname, reloptions FROM pg_class WHERE relname LIKE 'sp_like%'
  ORDER BY relname;
SELECT attname, attstorage FROM pg_attribute
  WHERE attrelid = 'sp_like'::regclass AND attnum > 0 ORDER BY attnum;

-- COMPRESSION
CREATE TABLE sp_c (a text COMPRESSION lz4, b int, c jsonb COMPRESSION pglz);
CREATE TABLE sp_c2 (a int COMPRESSION pglz);
ALTER TABLE sp_c ALTER COLUMN a SET COMPRESSION pglz;
ALTER TABLE sp_c ALTER COLUMN c SET COMPRESSION default;
ALTER TABLE sp_c ALTER COLUMN b SET COMPRESSION pglz;
ALTER TABLE sp_c ALTER COLUMN a SET COMPRESSION zstd;
ALTER TABLE sp_c ADD COLUMN d text COMPRESSION lz4;
ALTER TABLE sp_c ADD COLUMN e int COMPRESSION lz4;
SELECT attname, attcompression FROM pg_attribute
  WHERE attrelid = 'sp_c'::regclass AND attnum > 0 ORDER BY attnum;
CREATE TABLE sp_c3 (LIKE sp_c INCLUDING COMPRESSION);
CREATE TABLE sp_c4 (LIKE sp_c);
SELECT attrelid::regclass::text AS t, attname, attcompression FROM pg_attribute
  WHERE attrelid IN ('sp_c3'::regclass, 'sp_c4'::regclass) AND attnum > 0
  ORDER BY 1, attnum;
ALTER TABLE sp_c ALTER COLUMN d TYPE varchar(10);
SELECT attname, attcompression FROM pg_attribute
  WHERE attrelid = 'sp_c'::regclass AND attname = 'd';
\d+ sp_c
DROP TABLE sp_c, sp_c3, sp_c4;

-- REPLICA IDENTITY
CREATE TABLE sp_r (a int, b int NOT NULL, c int, d int NOT NULL);
CREATE UNIQUE INDEX sp_r_a ON sp_r (a);
CREATE UNIQUE INDEX sp_r_bp ON sp_r (b) WHERE b > 0;
CREATE UNIQUE INDEX sp_r_b ON sp_r (b);
CREATE INDEX sp_r_c ON sp_r (c);
CREATE UNIQUE INDEX sp_r_e ON sp_r ((b + d));
ALTER TABLE sp_r ADD CONSTRAINT sp_r_d_key UNIQUE (d) DEFERRABLE;
ALTER TABLE sp_r REPLICA IDENTITY FULL;
SELECT relreplident FROM pg_class WHERE relname = 'sp_r';
ALTER TABLE sp_r REPLICA IDENTITY USING INDEX sp_r_a;
ALTER TABLE sp_r REPLICA IDENTITY USING INDEX sp_r_bp;
ALTER TABLE sp_r REPLICA IDENTITY USING INDEX sp_r_c;
ALTER TABLE sp_r REPLICA IDENTITY USING INDEX sp_r_e;
ALTER TABLE sp_r REPLICA IDENTITY USING INDEX sp_r_d_key;
ALTER TABLE sp_r REPLICA IDENTITY USING INDEX nope;
ALTER TABLE sp_r REPLICA IDENTITY USING INDEX sp_k_pkey;
ALTER TABLE sp_r REPLICA IDENTITY USING INDEX sp_r_b;
SELECT relreplident FROM pg_class WHERE relname = 'sp_r';
SELECT indexrelid::regclass::text AS index, indisreplident FROM pg_index
  WHERE indrelid = 'sp_r'::regclass ORDER BY 1;
\d sp_r
ALTER TABLE sp_r REPLICA IDENTITY NOTHING;
SELECT relreplident FROM pg_class WHERE relname = 'sp_r';
SELECT count(*) FROM pg_index WHERE indrelid = 'sp_r'::regclass AND indisreplident;
ALTER TABLE sp_k REPLICA IDENTITY USING INDEX sp_k_pkey;
DROP INDEX sp_k_e;
ALTER TABLE sp_k DROP CONSTRAINT sp_k_pkey;
SELECT relreplident FROM pg_class WHERE relname = 'sp_k';
ALTER TABLE sp_r REPLICA IDENTITY DEFAULT;
SELECT relreplident FROM pg_class WHERE relname = 'sp_r';

DROP VIEW sp_view;
DROP SEQUENCE sp_seq;
DROP TABLE sp_t, sp_w, sp_v, sp_s, sp_k, sp_like, sp_r;
