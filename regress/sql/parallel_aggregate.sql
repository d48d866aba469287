-- One-row aggregates over a table of more than 100,000 rows: Kova computes
-- count, sum over int2/int4 and min/max over integer forms on two threads
-- over ranges of the rows and combines the parts; every answer must be the
-- one a single scan gives.
CREATE TABLE big (id serial PRIMARY KEY, a int, b int, s smallint, l bigint, d date, ts timestamptz, t text);
INSERT INTO big (a, b, s, l, d, ts, t)
SELECT CASE WHEN g % 97 = 0 THEN NULL ELSE ((g::bigint * 7919) % 100003 - 50000)::int END,
       ((g::bigint * 104729) % 1000003)::int,
       (g % 65000 - 32500)::smallint,
       CASE WHEN g % 1000 = 0 THEN NULL ELSE g::bigint * 4000000000 - 9000000000000000 END,
       DATE '2000-01-01' + (g % 9000),
       TIMESTAMPTZ '2020-01-01 00:00:00+00' + g * INTERVAL '1 minute',
       'row ' || g
FROM generate_series(1, 240000) AS g;
SELECT count(*), sum(a), min(a), max(a) FROM big;
SELECT count(*), sum(a) FROM big WHERE b > 500000;
SELECT count(a), count(l), sum(s), min(s), max(s) FROM big WHERE a < 0;
SELECT min(l), max(l), min(d), max(d), min(ts), max(ts) FROM big;
SELECT count(*) FILTER (WHERE a > 0), sum(a) FILTER (WHERE b % 2 = 0), count(*) FROM big WHERE id % 3 <> 1;
-- The same answer from one thread.
SET max_parallel_workers_per_gather = 0;
SELECT count(*), sum(a) FROM big WHERE b > 500000;
RESET max_parallel_workers_per_gather;
SHOW max_parallel_workers_per_gather;
-- No row matches: count 0, the others NULL.
SELECT count(*), count(a), sum(a), min(l), max(d) FROM big WHERE b < 0;
-- Only NULLs match.
SELECT count(*), count(a), sum(a), min(a) FROM big WHERE a IS NULL;
-- Parameters, and a prepared statement run twice.
PREPARE agg(int, int) AS SELECT count(*), sum(a), max(b) FROM big WHERE b BETWEEN $1 AND $2;
EXECUTE agg(1000, 600000);
EXECUTE agg(-5, 10);
DEALLOCATE agg;
-- A condition the helper cannot compute (text functions of the session's
-- runtime): the statement runs whole, with the same answer.
SELECT count(*), sum(a) FROM big WHERE upper(t) LIKE 'ROW 1%';
-- Inside a transaction that has written: the new rows count.
BEGIN;
INSERT INTO big (a, b) VALUES (1000000, 1);
DELETE FROM big WHERE id <= 1000;
SELECT count(*), sum(a), max(a), min(id) FROM big;
ROLLBACK;
SELECT count(*), sum(a), max(a), min(id) FROM big;
-- Shapes that are not combined from parts, with their usual answers.
SELECT count(DISTINCT s), avg(s)::numeric(10,4), sum(l) FROM big WHERE b > 900000;
SELECT sum(a) + 1, count(*) * 2 FROM big;
-- An error in a part is the error of the whole statement.
SELECT count(*) FROM big WHERE 1 / (id - 120000) > 5;
SELECT sum(a) FROM big WHERE b > 0 AND id::int2 > 0;
DROP TABLE big;
