--
-- Prepared statements over pg_roles, pg_database and pg_class.relacl see
-- roles, databases and privileges created after they were prepared.
--
PREPARE roles AS SELECT rolname, rolcanlogin FROM pg_roles
  WHERE rolname LIKE 'regress_prepcat%' ORDER BY 1;
EXECUTE roles;
CREATE ROLE regress_prepcat_a;
EXECUTE roles;
CREATE ROLE regress_prepcat_b LOGIN;
EXECUTE roles;
PREPARE dbs AS SELECT datname FROM pg_database
  WHERE datname LIKE 'regress_prepcat%' ORDER BY 1;
EXECUTE dbs;
CREATE DATABASE regress_prepcat_db;
EXECUTE dbs;
CREATE TABLE prepcat (a int);
PREPARE acl AS SELECT relname, relacl FROM pg_class WHERE relname = 'prepcat';
EXECUTE acl;
GRANT SELECT ON prepcat TO regress_prepcat_a;
EXECUTE acl;
GRANT INSERT, UPDATE ON prepcat TO regress_prepcat_b;
EXECUTE acl;
REVOKE SELECT ON prepcat FROM regress_prepcat_a;
EXECUTE acl;
-- A join of both, with a parameter.
PREPARE owner_of(text) AS SELECT c.relname, r.rolname
  FROM pg_class c JOIN pg_roles r ON r.oid = c.relowner WHERE c.relname = $1;
EXECUTE owner_of('prepcat');
ALTER TABLE prepcat OWNER TO regress_prepcat_b;
EXECUTE owner_of('prepcat');
DROP TABLE prepcat;
EXECUTE acl;
DROP DATABASE regress_prepcat_db;
EXECUTE dbs;
DROP ROLE regress_prepcat_a;
DROP ROLE regress_prepcat_b;
EXECUTE roles;
DEALLOCATE ALL;
