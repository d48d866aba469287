-- GRANT ... WITH GRANT OPTION and REVOKE GRANT OPTION FOR: the option is
-- kept, shown in relacl/attacl (r*) and answered by has_*_privilege.
CREATE ROLE regress_go_a;
CREATE ROLE regress_go_b;
CREATE TABLE go_t (a int, b int);
GRANT SELECT, INSERT ON go_t TO regress_go_a WITH GRANT OPTION;
GRANT UPDATE ON go_t TO regress_go_a;
GRANT SELECT (a) ON go_t TO regress_go_b WITH GRANT OPTION;
SELECT relacl FROM pg_class WHERE relname = 'go_t';
SELECT attname, attacl FROM pg_attribute WHERE attrelid = 'go_t'::regclass AND attnum > 0 ORDER BY attnum;
SELECT has_table_privilege('regress_go_a', 'go_t', 'SELECT WITH GRANT OPTION'),
       has_table_privilege('regress_go_a', 'go_t', 'UPDATE WITH GRANT OPTION'),
       has_table_privilege('regress_go_a', 'go_t', 'UPDATE'),
       has_column_privilege('regress_go_b', 'go_t', 'a', 'SELECT WITH GRANT OPTION'),
       has_column_privilege('regress_go_b', 'go_t', 'b', 'SELECT WITH GRANT OPTION');
REVOKE GRANT OPTION FOR SELECT ON go_t FROM regress_go_a;
SELECT relacl FROM pg_class WHERE relname = 'go_t';
SELECT has_table_privilege('regress_go_a', 'go_t', 'SELECT WITH GRANT OPTION'),
       has_table_privilege('regress_go_a', 'go_t', 'SELECT');
REVOKE INSERT ON go_t FROM regress_go_a;
SELECT relacl FROM pg_class WHERE relname = 'go_t';
DROP TABLE go_t;
DROP ROLE regress_go_a;
DROP ROLE regress_go_b;
