-- statement_timeout ends a long SELECT (57014), in autocommit and inside a
-- transaction block, and leaves the session usable.
CREATE TABLE st_big (g int);
INSERT INTO st_big SELECT g FROM generate_series(1, 3000) g;
SET statement_timeout = '150ms';
-- A three-way cross join: 27 billion rows, far past the timeout.
SELECT count(*) FROM st_big a, st_big b, st_big c;
SELECT count(*) FROM st_big;
BEGIN;
SELECT count(*) FROM st_big WHERE g <= 10;
SELECT count(*) FROM st_big a, st_big b, st_big c WHERE a.g + b.g + c.g = -1;
SELECT 1;
ROLLBACK;
BEGIN;
SAVEPOINT s;
SELECT max(a.g + b.g + c.g) FROM st_big a, st_big b, st_big c;
ROLLBACK TO SAVEPOINT s;
SELECT count(*) FROM st_big WHERE g > 2990;
COMMIT;
-- A prepared statement counts from its EXECUTE.
PREPARE st_q AS SELECT count(*) FROM st_big a, st_big b, st_big c WHERE a.g > $1;
EXECUTE st_q(0);
RESET statement_timeout;
SELECT count(*) FROM st_big a, st_big b WHERE a.g = b.g;
DROP TABLE st_big;
