-- LISTEN, UNLISTEN, NOTIFY and pg_notify. Nothing here listens to a
-- channel it notifies (psql would print the sender's process id, which
-- differs from server to server); delivery between sessions is covered by
-- the psycopg2 client test.
LISTEN jobs;
LISTEN "Mixed Case";
UNLISTEN jobs;
UNLISTEN *;
UNLISTEN never_listened;
NOTIFY jobs;
NOTIFY jobs, 'payload';
SELECT pg_notify('jobs', 'from a function');
SELECT pg_notify('jobs', NULL);
SELECT pg_typeof(pg_notify('jobs', 'x'));
BEGIN;
LISTEN jobs;
NOTIFY other, 'in a block';
SAVEPOINT s1;
UNLISTEN jobs;
ROLLBACK TO s1;
COMMIT;
UNLISTEN jobs;
-- The channel and payload limits.
NOTIFY "";
SELECT pg_notify('', 'x');
SELECT pg_notify(NULL, 'x');
SELECT pg_notify(repeat('c', 64), 'x');
SELECT pg_notify(repeat('c', 63), 'x');
SELECT pg_notify('jobs', repeat('x', 8000));
SELECT pg_notify('jobs', repeat('x', 7999));
-- An error after a NOTIFY in the same transaction sends nothing.
BEGIN;
NOTIFY jobs, 'lost';
SELECT 1 / 0;
ROLLBACK;
