-- kova-specific
--
-- Statements and clauses Kova does not run yet fail with 0A000 and a message
-- naming what is missing, never silently. (PostgreSQL runs all of these, so
-- this file's expected output is Kova's, checked by hand.)
--
\set VERBOSITY verbose
CREATE TABLE su_t (a int, b int);
-- an exclusion constraint, at table level and added later
CREATE TABLE su_ex (a int, EXCLUDE USING btree (a WITH =));
SELECT count(*) FROM pg_class WHERE relname = 'su_ex';
ALTER TABLE su_t ADD CONSTRAINT su_t_ex EXCLUDE USING btree (a WITH =);
-- statements named by what they are
CREATE STATISTICS su_stats ON a, b FROM su_t;
CREATE EVENT TRIGGER su_evt ON ddl_command_start EXECUTE FUNCTION nothing();
CREATE PUBLICATION su_pub FOR TABLE su_t;
DROP TABLE su_t;
