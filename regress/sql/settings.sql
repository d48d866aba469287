--
-- SET, SHOW, RESET, set_config and current_setting
--
-- (the runner's psql starts with PGTZ=PST8PDT, DateStyle 'Postgres, MDY' and
-- IntervalStyle postgres_verbose, as pg_regress does)
-- server_version carries the distribution's suffix ("15.18 (Debian ...)") and
-- the point release differs between machines: compare the major version only
SELECT split_part(current_setting('server_version'), '.', 1) AS major;
SELECT current_setting('server_version_num')::int / 10000 AS major_num;
SHOW server_encoding;
SHOW client_encoding;
SHOW standard_conforming_strings;
SHOW integer_datetimes;
SHOW IntervalStyle;
SHOW application_name;
-- DateStyle
SHOW DateStyle;
SET DateStyle = 'ISO, MDY';
SHOW DateStyle;
SET datestyle TO iso, dmy;
SHOW datestyle;
SET DATESTYLE = 'German';
SHOW DateStyle;
SELECT '2024-03-05 13:14:15.5'::timestamp, '2024-03-05'::date, '2024-03-05 13:14:15+00'::timestamptz;
SET DateStyle = 'SQL, DMY';
SHOW DateStyle;
SELECT '2024-03-05 13:14:15.5'::timestamp, '2024-03-05'::date, '2024-03-05 13:14:15+00'::timestamptz;
SET DateStyle = 'YMD';
SHOW DateStyle;
SET DateStyle = 'Postgres';
SHOW DateStyle;
SELECT '2024-03-05 13:14:15.5'::timestamp, '2024-03-05'::date, '2024-03-05 13:14:15+00'::timestamptz;
SET DateStyle = 'nonsense';
SET DateStyle = 'ISO, German';
SHOW DateStyle;
RESET DateStyle;
SHOW DateStyle;
SET DateStyle TO DEFAULT;
SHOW DateStyle;
-- TimeZone, in its various forms
SHOW TimeZone;
SET TimeZone = 'UTC';
SHOW TimeZone;
SET TIME ZONE 'Europe/Paris';
SHOW timezone;
SET TIME ZONE 'America/New_York';
SHOW TIME ZONE;
SET timezone TO 'Asia/Kolkata';
SHOW TimeZone;
SET TIME ZONE LOCAL;
SHOW TimeZone;
SET TIME ZONE 'Etc/GMT+3';
SHOW TimeZone;
SET TimeZone = '+02:00';
SHOW TimeZone;
SET TIME ZONE 4.5;
SHOW TimeZone;
SET TimeZone = 'europe/paris';
SHOW TimeZone;
SET TIME ZONE INTERVAL '+05:30' HOUR TO MINUTE;
SHOW TimeZone;
SET TIME ZONE -7;
SHOW TimeZone;
SET TIME ZONE 4.5;
SHOW TimeZone;
SET TIME ZONE DEFAULT;
SHOW TimeZone;
SET TimeZone = 'Mars/Olympus_Mons';
SET TimeZone = '';
SHOW TimeZone;
RESET TimeZone;
SHOW TimeZone;
-- extra_float_digits
SHOW extra_float_digits;
SELECT 0.1::float8, 1.0::float8 / 3, 0.1::float4;
SET extra_float_digits = 0;
SELECT 0.1::float8, 1.0::float8 / 3, 0.1::float4;
SET extra_float_digits = -3;
SELECT 0.1::float8, 1.0::float8 / 3, 0.1::float4;
SET extra_float_digits = 3;
SHOW extra_float_digits;
SET extra_float_digits = 4;
SET extra_float_digits = -16;
SET extra_float_digits = 'two';
SET extra_float_digits = 2.5;
SHOW extra_float_digits;
RESET extra_float_digits;
SHOW extra_float_digits;
-- search_path
SHOW search_path;
SET search_path = public;
SHOW search_path;
SET search_path TO myschema, public;
SHOW search_path;
SET search_path = "$user", public, pg_catalog;
SHOW search_path;
SET search_path = '';
SHOW search_path;
SELECT current_schema();
SET search_path = "Mixed Case", 'quoted', public;
SHOW search_path;
SELECT current_schema();
RESET search_path;
SHOW search_path;
SELECT current_schema();
-- application_name
SET application_name = 'kova test';
SHOW application_name;
SET application_name TO "quoted Name";
SHOW application_name;
SET application_name = 42;
SHOW application_name;
RESET application_name;
SHOW application_name;
-- client_min_messages
SHOW client_min_messages;
SET client_min_messages = warning;
SHOW client_min_messages;
DROP ROLE IF EXISTS regress_settings_nosuchrole;
SET client_min_messages = 'NOTICE';
SHOW client_min_messages;
DROP ROLE IF EXISTS regress_settings_nosuchrole;
SET client_min_messages = verbose;
RESET client_min_messages;
-- statement_timeout, with units
SHOW statement_timeout;
SET statement_timeout = 1000;
SHOW statement_timeout;
SET statement_timeout = '2s';
SHOW statement_timeout;
SET statement_timeout = '90s';
SHOW statement_timeout;
SET statement_timeout = '5min';
SHOW statement_timeout;
SET statement_timeout = '1h';
SHOW statement_timeout;
SET statement_timeout = '1500ms';
SHOW statement_timeout;
SET statement_timeout = '1d';
SHOW statement_timeout;
SET statement_timeout = '100 s';
SHOW statement_timeout;
SET statement_timeout = '1.5s';
SHOW statement_timeout;
SET statement_timeout = '10 parsecs';
SET statement_timeout = -1;
SET statement_timeout = 'forever';
SET statement_timeout = 0;
SHOW statement_timeout;
SET statement_timeout TO DEFAULT;
SHOW statement_timeout;
SET lock_timeout = '3s';
SHOW lock_timeout;
SET idle_in_transaction_session_timeout = '1min';
SHOW idle_in_transaction_session_timeout;
RESET lock_timeout;
RESET idle_in_transaction_session_timeout;
-- unknown parameters and invalid values
SET nosuch_parameter = 1;
SHOW nosuch_parameter;
RESET nosuch_parameter;
SELECT current_setting('nosuch_parameter');
SELECT current_setting('nosuch_parameter', true) IS NULL AS missing_ok;
SET standard_conforming_strings = maybe;
SET client_encoding = 'NOSUCH';
SET server_version = '16.0';
SET integer_datetimes = off;
-- custom (placeholder) parameters: names with a dot
SET myapp.tenant = 'acme';
SHOW myapp.tenant;
SELECT current_setting('myapp.tenant');
SELECT set_config('myapp.user_id', '42', false);
SHOW myapp.user_id;
RESET myapp.tenant;
SHOW myapp.tenant;
-- boolean settings accept the boolean spellings
SET enable_seqscan = off;
SHOW enable_seqscan;
SET enable_seqscan = 'yes';
SHOW enable_seqscan;
SET enable_seqscan = 0;
SHOW enable_seqscan;
RESET enable_seqscan;
SHOW enable_seqscan;
-- set_config and current_setting
SELECT set_config('application_name', 'via set_config', false);
SHOW application_name;
SELECT current_setting('application_name');
SELECT current_setting('DateStyle'), current_setting('TimeZone'), current_setting('search_path');
SELECT set_config('search_path', 'a, b', false), current_setting('search_path');
SELECT set_config('nosuch_parameter', 'x', false);
SELECT set_config('statement_timeout', 'soon', false);
SELECT set_config('extra_float_digits', NULL, false);
SELECT set_config(NULL, 'x', false);
RESET search_path;
RESET application_name;
-- SET LOCAL outside a transaction block: a warning, no effect
SET LOCAL application_name = 'local outside';
SHOW application_name;
-- SET LOCAL inside one lasts until its end, SET until the session's end
BEGIN;
SET LOCAL application_name = 'local inside';
SHOW application_name;
SET LOCAL statement_timeout = '7s';
SHOW statement_timeout;
SELECT set_config('extra_float_digits', '2', true);
SHOW extra_float_digits;
COMMIT;
SHOW application_name;
SHOW statement_timeout;
SHOW extra_float_digits;
BEGIN;
SET application_name = 'session inside';
SET LOCAL application_name = 'local over session';
SHOW application_name;
COMMIT;
SHOW application_name;
RESET application_name;
-- SET inside a transaction that rolls back is undone
BEGIN;
SET TimeZone = 'Asia/Tokyo';
SET extra_float_digits = 0;
SHOW TimeZone;
ROLLBACK;
SHOW TimeZone;
SHOW extra_float_digits;
-- also when the transaction failed
BEGIN;
SET DateStyle = 'ISO, YMD';
SELECT 1 / 0;
SHOW DateStyle;
ROLLBACK;
SHOW DateStyle;
-- savepoints: rolling back to one undoes the SETs after it
BEGIN;
SET search_path = before_sp;
SAVEPOINT sp;
SET search_path = after_sp;
SHOW search_path;
ROLLBACK TO SAVEPOINT sp;
SHOW search_path;
SAVEPOINT sp2;
SET search_path = kept;
RELEASE SAVEPOINT sp2;
SHOW search_path;
COMMIT;
SHOW search_path;
RESET search_path;
-- RESET ALL
SET application_name = 'to be reset';
SET extra_float_digits = 0;
RESET ALL;
SHOW application_name;
SHOW extra_float_digits;
SHOW DateStyle;
SHOW TimeZone;
-- SET SESSION is SET
SET SESSION extra_float_digits = 2;
SHOW extra_float_digits;
RESET extra_float_digits;
-- a quoted name; other read-only settings
SHOW "DateStyle";
SHOW transaction_isolation;
SHOW default_transaction_isolation;
SHOW max_identifier_length;
-- IntervalStyle
SET IntervalStyle = 'sql_standard';
SELECT '1 year 2 months 3 days 04:05:06'::interval, '-1 day'::interval;
SET IntervalStyle = 'iso_8601';
SELECT '1 year 2 months 3 days 04:05:06'::interval;
SET IntervalStyle = 'postgres_verbose';
SELECT '1 year 2 months 3 days 04:05:06'::interval;
SET IntervalStyle = 'nonsense';
RESET IntervalStyle;
SELECT '1 year 2 months 3 days 04:05:06'::interval;
-- statement_timeout cancels a running statement
SET statement_timeout = '200ms';
SELECT pg_sleep(5);
SELECT pg_sleep(0.01);
RESET statement_timeout;
-- memory settings: units, rounding, ranges, and SHOW in the largest unit that divides
SET work_mem = '8192'; SHOW work_mem;
SET work_mem = 8192; SHOW work_mem;
SET work_mem = '1000'; SHOW work_mem;
SET work_mem = '1GB'; SHOW work_mem;
SET work_mem = '1536kB'; SHOW work_mem;
SET work_mem = '1.5MB'; SHOW work_mem;
SET work_mem = '64kB'; SHOW work_mem;
SET work_mem = ' 2 MB '; SHOW work_mem;
SET work_mem = '1048576B'; SHOW work_mem;
SET work_mem = '1TB'; SHOW work_mem;
SET work_mem = '2047GB'; SHOW work_mem;
SET work_mem = '2048GB';
SET work_mem = '63kB';
SET work_mem = '1mb';
SET work_mem = 'abc';
SET work_mem = '';
SET work_mem = '-1';
SET work_mem = '100B'; SHOW work_mem;
SET work_mem = '65537B'; SHOW work_mem;
SET maintenance_work_mem = '1GB'; SHOW maintenance_work_mem;
SET maintenance_work_mem = '1023kB';
SET maintenance_work_mem = 2000; SHOW maintenance_work_mem;
RESET work_mem; SHOW work_mem;
-- The locale of the databases (read-only, as PostgreSQL 15's lc_collate and
-- lc_ctype are).
SHOW lc_ctype;
SHOW lc_collate;
SELECT current_setting('lc_ctype'), current_setting('lc_collate');
SET lc_ctype = 'C';
