-- System columns and transaction ids: ctid, tableoid, RETURNING xmax (the
-- upsert idiom that tells an inserted row from an updated one), the tid,
-- xid, xid8 and cid types, txid_current() and pg_current_xact_id().
-- Values that depend on the server (transaction numbers) are compared, not
-- printed. Kova keeps no per-row transaction ids: SELECT xmin/xmax/cmin/cmax
-- fail with 0A000 there (tests/planner_session/unsupported_test.cc).
CREATE TABLE sc (k int PRIMARY KEY, v text);
INSERT INTO sc VALUES (1, 'a'), (2, 'b'), (3, 'c');
-- The first rows of a table are (0,1), (0,2), ... in both servers.
SELECT ctid, k FROM sc ORDER BY k;
SELECT k FROM sc WHERE ctid = '(0,2)';
SELECT k FROM sc WHERE ctid > '(0,1)'::tid ORDER BY ctid DESC;
SELECT min(ctid), max(ctid), count(DISTINCT ctid) FROM sc;
SELECT tableoid = 'sc'::regclass AS same, tableoid::regclass FROM sc LIMIT 1;
SELECT a.ctid < b.ctid AS before FROM sc a, sc b WHERE a.k = 1 AND b.k = 3;
SELECT ctid FROM sc a, sc b;
-- The duplicate-removal idiom: keep the first row of each value.
CREATE TABLE dup (v text);
INSERT INTO dup VALUES ('x'), ('y'), ('x'), ('z'), ('y'), ('x');
DELETE FROM dup a USING dup b WHERE a.v = b.v AND a.ctid > b.ctid;
SELECT ctid, v FROM dup ORDER BY ctid;
-- RETURNING xmax = 0: inserted (true) or updated by ON CONFLICT (false).
INSERT INTO sc VALUES (3, 'c2'), (4, 'd')
  ON CONFLICT (k) DO UPDATE SET v = excluded.v
  RETURNING k, v, xmax = 0 AS inserted, xmax <> 0 AS updated;
INSERT INTO sc VALUES (5, 'e') ON CONFLICT (k) DO NOTHING
  RETURNING k, (xmax = 0) AS inserted;
INSERT INTO sc AS t VALUES (5, 'e2') ON CONFLICT (k) DO UPDATE SET v = 'e3'
  RETURNING t.k, t.v, t.xmax = 0 AS inserted;
BEGIN;
INSERT INTO sc VALUES (1, 'a2') ON CONFLICT (k) DO UPDATE SET v = excluded.v
  RETURNING xmax::text::bigint = txid_current() AS own_xid;
SELECT pg_current_xact_id()::text::bigint = txid_current() AS same;
SELECT txid_current_if_assigned() = txid_current() AS assigned;
COMMIT;
UPDATE sc SET v = 'b2' WHERE k = 2 RETURNING k, xmax;
DELETE FROM sc WHERE k = 4 RETURNING k, xmax <> 0 AS deleted_by_us;
-- Transaction ids: one per transaction, taken when first asked for.
BEGIN;
SELECT txid_current_if_assigned() IS NULL AS none_yet;
SELECT pg_current_xact_id_if_assigned() IS NULL AS none_yet;
SELECT txid_current() = txid_current() AS stable;
SELECT txid_current_if_assigned() = txid_current() AS assigned;
ROLLBACK;
BEGIN;
INSERT INTO sc VALUES (10, 'j');
SELECT txid_current_if_assigned() IS NOT NULL AS a_write_assigns;
ROLLBACK;
CREATE TEMP TABLE seen (x bigint);
INSERT INTO seen SELECT txid_current();
INSERT INTO seen SELECT txid_current();
SELECT count(DISTINCT x) AS distinct_ids, max(x) > min(x) AS increasing FROM seen;
SELECT txid_current() < txid_current() AS same_statement;
SELECT pg_typeof(txid_current()), pg_typeof(pg_current_xact_id()),
       pg_typeof(xid(pg_current_xact_id()));
SELECT typname, typlen, typbyval, typalign, typcategory FROM pg_type
  WHERE oid IN (27, 28, 29, 5069) ORDER BY oid;
SELECT format_type(27, -1), format_type(5069, NULL), 'xid8'::regtype::oid;
-- tid input and output, as tidin and tidout.
SELECT '(0,1)'::tid, '(4294967295,65535)'::tid, '(-1,0)'::tid, '(+1,+2)'::tid;
SELECT '(0,1)junk'::tid, 'x,1,2)'::tid, '( 1,2)'::tid;
SELECT '( 1 , 2 )'::tid;
SELECT 'x'::tid;
SELECT '(0,65536)'::tid;
SELECT '(4294967296,1)'::tid;
SELECT '(1,-1)'::tid;
SELECT '(0,2)'::tid < '(0,10)'::tid, '(1,1)'::tid > '(0,9)'::tid,
       '(0,1)'::tid = '(0,1)', '(0,1)'::tid <> '(0,1)', '(0,1)'::tid >= '(0,1)';
SELECT min(x), max(x) FROM (VALUES ('(0,2)'::tid), ('(0,10)'), ('(1,0)')) v(x);
SELECT x FROM (VALUES ('(0,2)'::tid), ('(0,10)'), ('(1,0)')) v(x) ORDER BY x DESC;
SELECT '(3,4)'::tid::text, '(3,4)'::text::tid;
-- xid, xid8 and cid: input as PostgreSQL 15 reads it (no errors).
SELECT '5'::xid, 'abc'::xid, '0x10'::xid, '010'::xid, ' 7'::xid, '-1'::xid,
       '4294967296'::xid, '12abc'::cid;
SELECT '5'::xid8, '0x10'::xid8, '-1'::xid8, '18446744073709551615'::xid8;
SELECT '5'::xid = 5, '5'::xid <> 5, '5'::xid = '5'::xid, '5'::cid = '6'::cid;
SELECT '7'::xid8 < '8'::xid8, '7'::xid8 >= '8'::xid8, '7'::xid8::xid;
SELECT min(x), max(x) FROM (VALUES ('5'::xid8), ('7')) v(x);
SELECT '5'::xid < '6'::xid;
SELECT '5'::xid > 3;
SELECT '5'::xid + 1;
SELECT 5::xid;
SELECT '5'::xid::int;
SELECT '5'::xid = '5'::xid8;
SELECT max('5'::xid);
-- No table column may take a system column's name; a view's may.
CREATE TABLE sysname (ctid int);
CREATE TABLE sysname (a int);
ALTER TABLE sysname ADD COLUMN xmin int;
ALTER TABLE sysname ADD COLUMN IF NOT EXISTS cmin int;
ALTER TABLE sysname RENAME a TO tableoid;
CREATE TABLE sysname2 AS SELECT 1 AS cmax;
CREATE VIEW sysview AS SELECT 1 AS ctid, 2 AS xmax;
SELECT * FROM sysview;
ALTER VIEW sysview RENAME COLUMN ctid TO cmin;
SELECT * FROM sysview;
DROP VIEW sysview;
DROP TABLE sc, dup, sysname;
