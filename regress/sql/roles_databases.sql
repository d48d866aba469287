--
-- CREATE/ALTER/DROP ROLE and CREATE/DROP DATABASE
--
-- (roles and databases are cluster-wide: every name here starts with
-- regress_rd_ so that tests running in parallel do not collide)
--
-- roles
CREATE ROLE regress_rd_plain;
CREATE ROLE regress_rd_login LOGIN;
CREATE ROLE regress_rd_pw LOGIN PASSWORD 'secret';
CREATE ROLE regress_rd_opts WITH NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE INHERIT CONNECTION LIMIT 5;
CREATE ROLE regress_rd_valid LOGIN PASSWORD 'x' VALID UNTIL 'infinity';
CREATE ROLE regress_rd_nopw LOGIN PASSWORD NULL;
CREATE USER regress_rd_user;
CREATE USER regress_rd_user_pw WITH PASSWORD 'secret' CREATEDB;
CREATE ROLE "regress_rd_Mixed Case";
-- duplicates, in any spelling
CREATE ROLE regress_rd_plain;
CREATE USER regress_rd_plain;
CREATE ROLE REGRESS_RD_PLAIN;
CREATE ROLE "regress_rd_Mixed Case";
-- reserved names
CREATE ROLE public;
CREATE ROLE "public";
CREATE ROLE none;
CREATE ROLE pg_regress_rd_reserved;
CREATE ROLE current_user;
-- conflicting or repeated options
CREATE ROLE regress_rd_bad LOGIN NOLOGIN;
CREATE ROLE regress_rd_bad PASSWORD 'a' PASSWORD 'b';
CREATE ROLE regress_rd_bad CONNECTION LIMIT -2;
CREATE ROLE regress_rd_bad WITH NOSUCHOPTION;
-- a LOGIN role can connect
\c - regress_rd_login
SELECT current_user, session_user;
\c - regress_rd_user
SELECT current_user, session_user;
\c - postgres
SELECT current_user, session_user;
-- ALTER ROLE
ALTER ROLE regress_rd_plain LOGIN;
ALTER ROLE regress_rd_plain WITH NOLOGIN CREATEDB;
ALTER ROLE regress_rd_plain PASSWORD 'newsecret';
ALTER ROLE regress_rd_plain PASSWORD NULL;
ALTER ROLE regress_rd_plain CONNECTION LIMIT 10;
ALTER ROLE regress_rd_plain VALID UNTIL 'infinity';
ALTER USER regress_rd_user NOCREATEDB;
ALTER ROLE regress_rd_plain LOGIN;
ALTER ROLE regress_rd_pw RENAME TO regress_rd_pw2;
SET password_encryption = 'md5';
ALTER ROLE regress_rd_pw2 PASSWORD 'secret';
ALTER ROLE regress_rd_pw2 RENAME TO regress_rd_pw3;
RESET password_encryption;
ALTER ROLE regress_rd_pw3 RENAME TO regress_rd_login;
ALTER ROLE regress_rd_pw3 RENAME TO pg_regress_rd;
ALTER ROLE regress_rd_nosuch RENAME TO regress_rd_x;
ALTER ROLE postgres RENAME TO regress_rd_postgres;
ALTER ROLE regress_rd_pw3 RENAME TO regress_rd_pw;
ALTER ROLE nosuch_role LOGIN;
ALTER ROLE regress_rd_plain LOGIN NOLOGIN;
-- DROP ROLE
DROP ROLE regress_rd_plain;
DROP ROLE regress_rd_plain;
DROP ROLE IF EXISTS regress_rd_plain;
DROP ROLE IF EXISTS regress_rd_login, regress_rd_nosuch, regress_rd_pw;
DROP ROLE regress_rd_opts, regress_rd_nosuch;
DROP ROLE regress_rd_opts;
DROP USER regress_rd_valid, regress_rd_nopw;
DROP ROLE "regress_rd_Mixed Case";
DROP ROLE postgres;
DROP ROLE public;
DROP ROLE current_user;
-- CREATE DATABASE and DROP DATABASE
CREATE DATABASE regress_rd_db1;
CREATE DATABASE regress_rd_db1;
CREATE DATABASE REGRESS_RD_DB1;
CREATE DATABASE "regress_rd_DB";
CREATE DATABASE regress_rd_db2 WITH TEMPLATE template0 ENCODING 'UTF8';
CREATE DATABASE regress_rd_db3 OWNER regress_rd_user;
CREATE DATABASE regress_rd_db4 OWNER regress_rd_nosuch;
CREATE DATABASE regress_rd_db4 WITH NOSUCHOPTION 1;
-- connect to a new database, and back
\c regress_rd_db1
SELECT current_database();
\c "regress_rd_DB"
SELECT current_database();
\c postgres
SELECT current_database();
-- the current database cannot be dropped
DROP DATABASE postgres;
-- not inside a transaction block
BEGIN;
CREATE DATABASE regress_rd_intx;
ROLLBACK;
BEGIN;
DROP DATABASE regress_rd_db1;
ROLLBACK;
BEGIN;
DROP DATABASE IF EXISTS regress_rd_nosuch;
ROLLBACK;
SELECT 1 \; CREATE DATABASE regress_rd_implicit;
-- DROP DATABASE
DROP DATABASE regress_rd_db1;
DROP DATABASE regress_rd_db1;
DROP DATABASE IF EXISTS regress_rd_db1;
DROP DATABASE IF EXISTS "regress_rd_DB";
DROP DATABASE regress_rd_db2 WITH (FORCE);
DROP DATABASE regress_rd_db3;
DROP DATABASE regress_rd_intx;
-- now the owner can go
DROP ROLE regress_rd_user;
DROP USER regress_rd_user_pw;
DROP ROLE IF EXISTS regress_rd_user, regress_rd_user_pw;
-- Database properties, as pg_dump -C emits them: owner, comment, connection
-- limit, setting defaults (what new sessions start with), privileges.
CREATE ROLE regress_rd_props LOGIN;
CREATE DATABASE regress_rd_props;
ALTER DATABASE regress_rd_props OWNER TO regress_rd_props;
ALTER DATABASE regress_rd_props OWNER TO regress_rd_nosuch;
ALTER DATABASE regress_rd_nosuch OWNER TO regress_rd_props;
COMMENT ON DATABASE regress_rd_props IS 'with properties';
COMMENT ON DATABASE regress_rd_nosuch IS 'missing: only a warning';
COMMENT ON DATABASE regress_rd_props IS NULL;
ALTER DATABASE regress_rd_props CONNECTION LIMIT = 20;
ALTER DATABASE regress_rd_props WITH CONNECTION LIMIT -2;
ALTER DATABASE regress_rd_props ALLOW_CONNECTIONS true IS_TEMPLATE false;
ALTER DATABASE regress_rd_nosuch CONNECTION LIMIT 1;
ALTER DATABASE regress_rd_props SET nosuch_setting = 1;
ALTER DATABASE regress_rd_props SET extra_float_digits = 'many';
ALTER DATABASE regress_rd_props SET work_mem = '1mb';
ALTER DATABASE regress_rd_props SET server_version = '1';
ALTER DATABASE regress_rd_nosuch SET work_mem = '1MB';
ALTER DATABASE regress_rd_props SET work_mem = '1MB';
ALTER DATABASE regress_rd_props SET "TimeZone" TO 'Europe/Paris';
ALTER DATABASE regress_rd_props SET search_path TO 'public', 'other';
ALTER DATABASE regress_rd_props SET datestyle TO 'ISO, DMY';
ALTER DATABASE regress_rd_props RESET datestyle;
SET extra_float_digits = 2;
ALTER DATABASE regress_rd_props SET extra_float_digits FROM CURRENT;
RESET extra_float_digits;
ALTER DATABASE regress_rd_props SET statement_timeout TO DEFAULT;
ALTER ROLE regress_rd_nosuch IN DATABASE regress_rd_props SET work_mem = '2MB';
ALTER ROLE regress_rd_props IN DATABASE regress_rd_nosuch SET work_mem = '2MB';
ALTER ROLE regress_rd_props IN DATABASE regress_rd_props SET work_mem = '2MB';
ALTER ROLE ALL IN DATABASE regress_rd_props SET statement_timeout = '3s';
BEGIN;
ALTER DATABASE regress_rd_props SET lock_timeout = '7s';
ROLLBACK;
GRANT CONNECT ON DATABASE regress_rd_nosuch TO regress_rd_props;
GRANT SELECT ON DATABASE regress_rd_props TO regress_rd_props;
GRANT CREATE, TEMP ON DATABASE regress_rd_props TO regress_rd_props;
REVOKE CONNECT, TEMPORARY ON DATABASE regress_rd_props FROM PUBLIC;
GRANT ALL ON DATABASE regress_rd_props TO regress_rd_nosuch;
\c regress_rd_props
SHOW work_mem;
SHOW "TimeZone";
SHOW search_path;
SHOW statement_timeout;
SHOW extra_float_digits;
SHOW lock_timeout;
SET work_mem = '9MB';
RESET work_mem;
SHOW work_mem;
\c - regress_rd_props
SHOW work_mem;
SHOW statement_timeout;
RESET ALL;
SHOW work_mem;
\c postgres postgres
ALTER DATABASE regress_rd_props RESET ALL;
ALTER ROLE regress_rd_props IN DATABASE regress_rd_props RESET work_mem;
\c regress_rd_props regress_rd_props
SHOW work_mem;
SHOW statement_timeout;
SHOW "TimeZone";
\c postgres postgres
DROP DATABASE regress_rd_props;
DROP ROLE regress_rd_props;

-- ALTER ROLE ... SET without IN DATABASE: the role's defaults in every
-- database, applied at its next login, above ALTER DATABASE ... SET and
-- below ALTER ROLE ... IN DATABASE ... SET
CREATE ROLE regress_rd_settings LOGIN;
CREATE DATABASE regress_rd_settings_db;
ALTER ROLE regress_rd_settings SET work_mem = '3MB';
ALTER ROLE regress_rd_settings SET statement_timeout = '4s';
ALTER USER regress_rd_settings SET extra_float_digits = 2;
ALTER ROLE regress_rd_settings SET lock_timeout TO '6s';
ALTER ROLE regress_rd_settings SET nosuch_setting = 1;
ALTER ROLE regress_rd_settings SET work_mem = 'lots';
ALTER ROLE regress_rd_settings SET server_version = '1';
ALTER ROLE regress_rd_nosuch SET work_mem = '1MB';
ALTER ROLE regress_rd_nosuch RESET work_mem;
ALTER DATABASE regress_rd_settings_db SET work_mem = '7MB';
ALTER DATABASE regress_rd_settings_db SET lock_timeout = '8s';
ALTER ROLE regress_rd_settings IN DATABASE regress_rd_settings_db SET statement_timeout = '5s';
SHOW work_mem;
\c regress_rd_settings_db regress_rd_settings
SHOW work_mem;
SHOW statement_timeout;
SHOW extra_float_digits;
SHOW lock_timeout;
\c postgres regress_rd_settings
SHOW statement_timeout;
\c postgres postgres
ALTER ROLE regress_rd_settings RESET work_mem;
ALTER ROLE regress_rd_settings SET extra_float_digits TO DEFAULT;
ALTER ROLE regress_rd_settings RESET nosuch_setting;
\c regress_rd_settings_db regress_rd_settings
SHOW work_mem;
SHOW extra_float_digits;
SHOW lock_timeout;
\c postgres postgres
ALTER ROLE regress_rd_settings RESET ALL;
\c regress_rd_settings_db regress_rd_settings
SHOW statement_timeout;
SHOW lock_timeout;
\c postgres postgres
ALTER ROLE regress_rd_settings SET work_mem = '2MB';
ALTER ROLE regress_rd_settings RENAME TO regress_rd_settings2;
\c regress_rd_settings_db regress_rd_settings2
SHOW work_mem;
\c postgres postgres
DROP DATABASE regress_rd_settings_db;
DROP ROLE regress_rd_settings2;
