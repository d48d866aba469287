-- Catalog views over objects Kova has none of (and a fresh PostgreSQL
-- database has none of either): listed with PostgreSQL's columns, empty.
SELECT * FROM pg_matviews;
SELECT * FROM pg_policies;
SELECT * FROM pg_prepared_xacts;
SELECT * FROM pg_replication_slots;
SELECT * FROM pg_stat_replication;
SELECT * FROM pg_stats WHERE schemaname = 'public';
SELECT name, default_version FROM pg_available_extensions
  WHERE name = 'no_such_extension';
SELECT count(*) FROM pg_available_extension_versions
  WHERE name = 'no_such_extension';
SELECT * FROM pg_user_mappings;
-- Their rows type as PostgreSQL's do where Kova has the type.
SELECT pg_typeof(transaction), pg_typeof(prepared) FROM pg_prepared_xacts;
SELECT count(*) FROM pg_matviews m JOIN pg_class c ON c.relname = m.matviewname;
-- Tablespaces, encodings and collations.
SELECT spcname, pg_tablespace_location(oid) FROM pg_tablespace ORDER BY 1;
SELECT pg_tablespace_location(0) = '' AS default_location;
SELECT getdatabaseencoding(), pg_char_to_encoding('UTF8'),
       pg_char_to_encoding('utf8'), pg_char_to_encoding('LATIN1'),
       pg_char_to_encoding('no such'), pg_encoding_to_char(6),
       pg_encoding_to_char(8), pg_encoding_to_char(999) = '' AS unknown;
SELECT collname, collprovider, colliculocale, collversion IS NULL AS nover
  FROM pg_collation WHERE oid IN (100, 950, 951) ORDER BY oid;
SELECT pg_collation_is_visible(950), pg_opclass_is_visible(0),
       pg_operator_is_visible(0), pg_statistics_obj_is_visible(0);
SELECT pg_tablespace_size('no_such_tablespace');
SELECT pg_database_size('no_such_database');
CREATE TABLE sized_rows AS SELECT g AS a FROM generate_series(1, 1000) g;
SELECT pg_database_size(current_database()) > 0 AS has_size,
       pg_tablespace_size('pg_default') >= pg_database_size(current_database())
         AS holds_it;
DROP TABLE sized_rows;
-- Time zones (ones without daylight saving time, so the output does not
-- depend on the date), the leap-second zones left out.
SELECT * FROM pg_timezone_names
  WHERE name IN ('Asia/Kolkata', 'Asia/Tokyo', 'UTC', 'Etc/GMT+5', 'Zulu')
  ORDER BY name;
SELECT count(*) > 400 AS many, count(*) FILTER (WHERE name LIKE 'right/%') AS leap,
       count(*) FILTER (WHERE name = 'Europe/Paris') AS paris
  FROM pg_timezone_names;
SELECT pg_typeof(utc_offset), pg_typeof(is_dst) FROM pg_timezone_names LIMIT 1;
-- The Default abbreviation set (fixed ones: their offsets never move).
SELECT * FROM pg_timezone_abbrevs
  WHERE abbrev IN ('CET', 'EST', 'IST', 'JST', 'NZDT', 'PST', 'UTC', 'Z')
  ORDER BY abbrev;
SELECT count(*) > 150 AS many FROM pg_timezone_abbrevs;
