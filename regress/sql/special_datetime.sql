-- The special date/time inputs that read the transaction's start: 'now',
-- 'today', 'tomorrow', 'yesterday' (each compared with the functions that
-- read the same instant, so that the output does not depend on the clock).
BEGIN;
SELECT 'now'::timestamptz = now(), 'today'::date = current_date, 'tomorrow'::date - 'yesterday'::date, 'now'::timestamp = localtimestamp, 'today'::timestamp = date_trunc('day', localtimestamp), 'now'::time = localtime;
SET LOCAL TimeZone = 'Pacific/Kiritimati';
SELECT 'today'::date = current_date, 'now'::timestamptz = now(), 'tomorrow'::timestamptz = date_trunc('day', now()) + interval '1 day', 'yesterday'::timestamp = date_trunc('day', localtimestamp) - interval '1 day';
COMMIT;
SELECT 'yesterday'::date < 'today'::date, 'today'::date < 'tomorrow'::date, '2024-01-01'::date < 'today', 'now'::timestamptz > '2024-01-01';
-- a column default of 'now' is the time of CREATE TABLE, as in PostgreSQL
CREATE TABLE frozen (id int, at timestamptz DEFAULT 'now');
INSERT INTO frozen (id) VALUES (1);
SELECT at <= now() FROM frozen;
DROP TABLE frozen;
