-- Prepared statements keep their constants' values when DateStyle,
-- TimeZone, IntervalStyle or extra_float_digits change before EXECUTE:
-- a constant is a value, printed under the settings of the moment.
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, DMY';
SET IntervalStyle = 'postgres';
SET extra_float_digits = 1;
CREATE TABLE ps_events (n int, at timestamptz, day date);
INSERT INTO ps_events VALUES (1, '2020-01-01 12:00+00', '2020-01-02');
-- without FROM: the literals are read now (DMY, UTC) ...
PREPARE ps_const AS
  SELECT '2020-01-01 12:00'::timestamptz AS at, '02.01.2020'::date AS day,
         '02.01.2020'::date + 1 AS next_day, interval '1 day 2 hours' AS span,
         ARRAY['2020-01-02'::date] AS days, 0.1::float8 AS tenth,
         timestamp '2020-01-01 12:00' AS local;
EXECUTE ps_const;
-- over a table
PREPARE ps_table AS
  SELECT n, at, day, at > '2020-01-01 11:00' AS later,
         '2020-01-01 12:00'::timestamptz AS lit FROM ps_events ORDER BY n;
EXECUTE ps_table;
PREPARE ps_insert AS INSERT INTO ps_events VALUES ($1, '2020-01-01 12:00', '03.01.2020');
PREPARE ps_insert_select AS
  INSERT INTO ps_events SELECT $1::int, '2020-01-01 12:00', '04.01.2020';
-- ... and printed under the new settings.
SET TimeZone = 'Asia/Tokyo';
SET DateStyle = 'German, MDY';
SET IntervalStyle = 'iso_8601';
SET extra_float_digits = 0;
EXECUTE ps_const;
EXECUTE ps_table;
EXECUTE ps_insert(2);
EXECUTE ps_insert_select(3);
SET DateStyle = 'SQL, DMY';
SET IntervalStyle = 'sql_standard';
EXECUTE ps_const;
EXECUTE ps_table;
SET DateStyle = 'ISO';
SET TimeZone = 'America/New_York';
EXECUTE ps_const;
EXECUTE ps_table;
DEALLOCATE ps_const;
DEALLOCATE ps_table;
DEALLOCATE ps_insert;
DEALLOCATE ps_insert_select;
DROP TABLE ps_events;
