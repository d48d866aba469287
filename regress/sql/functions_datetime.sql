--
-- Date/time operators and functions (pg_regress settings: DateStyle
-- 'Postgres, MDY', TimeZone PST8PDT, IntervalStyle postgres_verbose).
--
-- arithmetic
SELECT date '2020-01-31' + 1, 1 + date '2020-01-31', date '2020-03-01' - 1,
       date '2020-03-01' - date '2020-01-01', date 'infinity' + 1;
SELECT date '2020-01-31' + interval '1 month', interval '1 day' + date '2020-02-28',
       date '2020-03-31' - interval '1 month', date '2020-01-01' + time '10:30';
SELECT timestamp '2020-01-31 10:00' + interval '1 month 1 day 1 hour',
       timestamp '2020-03-31 10:00' - interval '1 month',
       timestamp '2020-03-01' - timestamp '2020-01-01 12:00',
       timestamp '2020-01-01' - timestamp '2020-03-01 12:00',
       timestamp '2019-02-28 23:00' + interval '2 hours';
SELECT timestamptz '2020-03-07 12:00' + interval '1 day',
       timestamptz '2020-03-07 12:00' + interval '24 hours',
       timestamptz '2020-11-01 12:00' - timestamptz '2020-10-31 12:00',
       timestamptz '2020-01-31 00:00' + interval '1 mon';
SELECT interval '1 day' + interval '2 hours', interval '1 day' - interval '2 days',
       interval '1 month' * 1.5, 2 * interval '1 hour 30 min', interval '1 day' / 3,
       interval '1 mon' / 4, -interval '1 day 2 hours', interval '1 year' * 0.5;
SELECT interval '1 day' / 0;
SELECT time '10:00' + interval '15 hours', interval '1 hour' + time '23:30',
       time '10:00' - interval '11 hours', time '10:00' - time '08:30',
       time '08:00' - time '10:30';
SELECT date '2020-01-01' - 2147483647;
SELECT date 'infinity' - date '2020-01-01';
SELECT date '2020-01-01' + '1 day';
-- comparisons
SELECT interval '1 day' > interval '23 hours', interval '1 mon' = interval '30 days',
       interval '1 day' = interval '24 hours', time '10:00' < time '11:00',
       date '2020-01-01' < timestamp '2020-01-01 00:00:01',
       timestamp '2020-01-01 10:00' = timestamptz '2020-01-01 10:00',
       date '2020-01-02' > timestamptz '2020-01-01 23:00',
       interval '1 day' IS DISTINCT FROM interval '24 hours',
       date '2020-01-01' BETWEEN '2019-12-31' AND '2020-01-02';
SELECT greatest(date '2020-01-01', date '2021-01-01'),
       least(interval '1 day', interval '2 hours'),
       greatest(time '10:00', time '09:00');
-- extract and date_part
SELECT extract(year from timestamp '2020-05-17 10:20:30.5'),
       extract(second from timestamp '2020-05-17 10:20:30.5'),
       extract(milliseconds from timestamp '2020-05-17 10:20:30.5'),
       extract(microseconds from timestamp '2020-05-17 10:20:30.5'),
       extract(epoch from timestamp '2020-05-17 10:20:30.5'),
       extract(epoch from timestamptz '2020-05-17 10:20:30.5+02');
SELECT extract(dow from date '2020-05-17'), extract(isodow from date '2020-05-17'),
       extract(doy from date '2020-05-17'), extract(week from date '2020-01-01'),
       extract(week from date '2021-01-01'), extract(isoyear from date '2021-01-01'),
       extract(quarter from date '2020-05-17'), extract(month from date '2020-05-17'),
       extract(day from date '2020-05-17'), extract(decade from date '2020-05-17'),
       extract(century from date '2020-05-17'), extract(millennium from date '2020-05-17'),
       extract(julian from date '2020-05-17'), extract(epoch from date '2020-05-17');
SELECT extract(year from date '0044-03-15 BC'), extract(century from date '0044-03-15 BC'),
       extract(hour from timestamp '2020-05-17 10:20:30'),
       extract(minute from time '10:20:30'), extract(second from time '10:20:30.25'),
       extract(epoch from time '01:00'), extract(timezone from timestamptz '2020-05-17 10:00'),
       extract(timezone_hour from timestamptz '2020-01-17 10:00');
SELECT extract(epoch from interval '1 month 1 day'), extract(hour from interval '1 day 5 hours'),
       extract(year from interval '26 months'), extract(month from interval '26 months'),
       extract(day from interval '40 days'), extract(second from interval '90.5 seconds');
SELECT date_part('year', timestamp '2020-05-17 10:20:30.5'),
       date_part('second', timestamp '2020-05-17 10:20:30.5'),
       date_part('epoch', timestamptz '2020-05-17 10:20:30.5+02'),
       date_part('hour', interval '1 day 5 hours'), date_part('day', date '2020-05-17'),
       date_part('hour', date '2020-05-17'), date_part('MONTH', timestamp '2020-05-17'),
       date_part('years', timestamp '2020-05-17'), date_part('dow', date '2020-05-16');
SELECT extract(hour from date '2020-05-17');
SELECT extract(foo from timestamp '2020-01-01');
SELECT extract(day from time '10:00');
SELECT extract(timezone from timestamp '2020-01-01');
SELECT date_part('year', '2020-01-01');
SELECT pg_typeof(extract(year from date '2020-01-01')),
       pg_typeof(date_part('year', date '2020-01-01'));
-- date_trunc
SELECT date_trunc('month', timestamp '2020-05-17 10:20:30'),
       date_trunc('week', timestamp '2020-05-17 10:20:30'),
       date_trunc('day', timestamptz '2020-05-17 10:20:30'),
       date_trunc('hour', timestamp '2020-05-17 10:20:30.5'),
       date_trunc('quarter', date '2020-05-17'),
       date_trunc('year', timestamp '2020-05-17'),
       date_trunc('decade', timestamp '2020-05-17'),
       date_trunc('century', timestamp '2020-05-17'),
       date_trunc('millennium', timestamp '2020-05-17'),
       date_trunc('milliseconds', timestamp '2020-05-17 10:20:30.123456');
SELECT date_trunc('hour', interval '1 day 5 hours 30 min'),
       date_trunc('year', interval '14 months'),
       date_trunc('day', timestamptz '2020-05-17 10:20:30+00', 'Asia/Tokyo');
SELECT date_trunc('week', interval '1 day');
SELECT date_trunc('foo', timestamp '2020-01-01');
-- age
SELECT age(timestamp '2020-05-17', timestamp '2019-01-31 10:00'),
       age(timestamp '2019-01-31', timestamp '2020-05-17 10:00'),
       age(timestamptz '2020-03-31', timestamptz '2020-02-29'),
       age(timestamp '2020-01-01', timestamp '2020-01-01');
-- constructors
SELECT make_date(2020, 2, 29), make_date(-44, 3, 15), make_time(10, 20, 30.5),
       make_timestamp(2020, 1, 2, 3, 4, 5.5), make_timestamptz(2020, 1, 2, 3, 4, 5.5),
       make_timestamptz(2020, 1, 2, 3, 4, 5.5, 'UTC');
SELECT make_interval(1, 2, 3, 4, 5, 6, 7.5), make_interval(days => 10),
       make_interval(hours => 2, secs => 1.5), make_interval();
SELECT make_date(2020, 2, 30);
SELECT make_date(0, 1, 1);
SELECT make_time(25, 0, 0);
SELECT make_timestamp(2020, 13, 1, 0, 0, 0);
-- justify, isfinite, to_timestamp
SELECT justify_days(interval '35 days'), justify_days(interval '-35 days'),
       justify_hours(interval '27 hours'), justify_hours(interval '-27 hours'),
       justify_interval(interval '1 mon -1 hour'), justify_interval(interval '-1 mon 35 days');
SELECT isfinite(date 'infinity'), isfinite(date '2020-01-01'),
       isfinite(timestamp '2020-01-01'), isfinite(timestamptz '-infinity'),
       isfinite(interval '1 day');
SELECT to_timestamp(0), to_timestamp(1590000000.5), to_timestamp('infinity'::float8);
SELECT to_timestamp('NaN'::float8);
-- to_char, to_date, to_timestamp(text, text)
SELECT to_char(timestamp '2020-05-07 14:05:09.123456', 'YYYY-MM-DD HH24:MI:SS.MS US'),
       to_char(timestamp '2020-05-07 14:05:09', 'Day, DD Month YYYY HH12:MI AM'),
       to_char(timestamp '2020-05-07 14:05:09', 'FMDay, FMDD FMMonth YYYY'),
       to_char(timestamp '2020-05-07', 'Dy Mon dy mon DY MON DDD D Q WW IW J CC');
SELECT to_char(date '2020-05-01', 'DDth FMDDth yyyy-mm-dd'),
       to_char(timestamptz '2020-05-07 14:05:09+00', 'YYYY-MM-DD HH24:MI TZ OF'),
       to_char(interval '1 day 25 hours 3 mins', 'HH24:MI:SS'),
       to_char(timestamp '2020-05-07', '"Year" YYYY'),
       to_char(timestamp '2020-05-07 00:30', 'HH12 am a.m. PM');
SELECT to_char(123.456, '999.99'), to_char(-123.456, '999.99'), to_char(5, '000'),
       to_char(1234567, '9,999,999'), to_char(0.5, '9.99'), to_char(0.5, '0.99'),
       to_char(12, 'FM999.99'), to_char(12.5, 'FM999.00'), to_char(-5, 'S999'),
       to_char(5, '999S'), to_char(-5, '999MI'), to_char(12345, '999'),
       to_char(1.5::float8, '9.9'), to_char(42, 'FM9999'), to_char(0, '9999'),
       to_char(-0.5, '9.9'), to_char(3, '9th');
SELECT to_date('2020-05-07', 'YYYY-MM-DD'), to_date('07 May 2020', 'DD Mon YYYY'),
       to_timestamp('2020-05-07 14:05:09', 'YYYY-MM-DD HH24:MI:SS'),
       to_timestamp('05/07/2020 02:05 PM', 'MM/DD/YYYY HH:MI AM'),
       to_timestamp('2020-05-07 14:05:09.5', 'YYYY-MM-DD HH24:MI:SS.MS');
SELECT to_date('2020-13-07', 'YYYY-MM-DD');
-- current date/time (only deterministic checks)
SELECT current_date = now()::date, localtimestamp = now()::timestamp,
       current_timestamp = now(), localtime = now()::time,
       pg_typeof(localtime), pg_typeof(current_date), pg_typeof(localtimestamp),
       pg_typeof(current_timestamp(2)), age(now()) < interval '1 day';
SELECT timestamp '2020-01-01 10:00' AT TIME ZONE 'UTC',
       timestamptz '2020-01-01 10:00+00' AT TIME ZONE 'Asia/Tokyo';
-- casts among the date/time types
SELECT '2020-01-02 03:04:05'::timestamp::date, date '2020-01-02'::timestamptz,
       timestamptz '2020-01-02 03:04:05+00'::time, time '10:00'::interval,
       interval '25 hours'::time, '1 day'::interval::text;
-- over a table
CREATE TABLE fd_t (id int, d date, ts timestamp, tz timestamptz, iv interval, tm time);
INSERT INTO fd_t VALUES
  (1, '2020-05-17', '2020-05-17 10:20:30', '2020-05-17 10:20:30+00', '1 day 2 hours', '10:20:30'),
  (2, '2021-01-31', '2021-01-31 00:00', '2021-01-31 00:00+00', '-3 hours', '23:59:59'),
  (3, NULL, NULL, NULL, NULL, NULL);
SELECT id, d + 1, d - 1, d + iv, ts + iv, tz + iv, ts - interval '1 month',
       d - date '2020-01-01', ts - timestamp '2020-01-01', tm + iv, iv * 2, iv / 2, -iv
  FROM fd_t ORDER BY id;
SELECT id, extract(year from d), extract(epoch from ts), date_part('hour', ts),
       date_trunc('month', tz), age(ts, timestamp '2019-01-01'),
       to_char(ts, 'YYYY-MM-DD HH24:MI'), justify_hours(iv), isfinite(d),
       make_date(extract(year from d)::int, 1, 1)
  FROM fd_t ORDER BY id;
SELECT id FROM fd_t WHERE d > '2020-06-01' ORDER BY id;
SELECT id FROM fd_t WHERE iv < interval '1 day' AND tm > time '12:00' ORDER BY id;
SELECT id FROM fd_t WHERE ts >= date '2021-01-01' OR tz < timestamp '2020-06-01' ORDER BY id;
SELECT id FROM fd_t ORDER BY iv DESC NULLS LAST;
DROP TABLE fd_t;
-- unknown literals resolved as PostgreSQL does
SELECT time '10:00' + '1 hour', interval '1 hour' + '10:00',
       date '2020-01-01' - '2019-12-01', timestamp '2020-01-01' - '2019-12-31',
       interval '1 day' * '2';
SELECT date '2020-01-01' + '1 day';
SELECT -'5';
-- interval type modifiers: fields and precision
SELECT '1 day 3 hours 4.56789 sec'::interval(2), '1 day 3 hours 4.56789 sec'::interval day;
SELECT '1 year 2 mons 1 day 3 hours 4.56789 sec'::interval year to month,
       '1 day 3 hours 4.56789 sec'::interval hour to minute;
SELECT '1 day 3 hours 4.56789 sec'::interval day to second(1),
       '1 day 3 hours 4.56789 sec'::interval second(3), '4.5 sec'::interval(6);
CREATE TABLE fdt_itm (a interval day, b interval(2), c interval minute to second(0));
INSERT INTO fdt_itm VALUES ('1 day 3 hours', '1.555 sec', '2 hours 3.5 sec');
SELECT * FROM fdt_itm;
SELECT pg_typeof(a), pg_typeof(b), pg_typeof(c) FROM fdt_itm;
DROP TABLE fdt_itm;
