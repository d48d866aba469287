-- pg_size_pretty over bigint and numeric, pg_size_bytes, and the pg_user view.
SELECT pg_size_pretty(123456789::bigint), pg_size_pretty(1024::numeric), pg_size_pretty(10485760.7::numeric), pg_size_bytes('1 GB'), pg_size_bytes('1.5kB'), pg_size_bytes(' 12 bytes '), pg_size_bytes('-1 MB'), pg_size_bytes('3PB');
SELECT pg_size_bytes('1 XB');
SELECT pg_size_bytes('abc');
SELECT usename, usesuper, passwd FROM pg_user WHERE usename = current_user;
