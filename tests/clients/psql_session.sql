-- psql session: variables, \echo, \gset, \pset, transactions, errors, then
-- \d and \l (need the catalog) and a table (needs tables).
-- Each "\echo @@step NAME [needs=a,b]" starts a step; the runner compares
-- the output between markers.
\echo @@step variables
\set answer 42
\set greeting 'hello world'
\echo :answer :'greeting'
SELECT :answer + 1 AS plus_one, :'greeting' AS greeting;
\echo @@step gset
SELECT 7 AS seven, 'x' || 'y' AS xy \gset
\echo seven=:seven xy=:xy
\echo @@step gset prefix
SELECT 1 AS a, 2 AS b \gset p_
\echo :p_a :p_b
\echo @@step pset formats
\pset format unaligned
SELECT 1 AS a, 'two' AS b;
\pset format aligned
\pset null '(null)'
SELECT NULL AS n, 'v' AS v;
\x on
SELECT 1 AS a, 2 AS b;
\x off
\echo @@step values
VALUES (1, 'one'), (2, 'two'), (3, NULL);
\echo @@step values in FROM needs=subqueries
SELECT * FROM (VALUES (1, 'one'), (2, 'two'), (3, NULL)) AS v(n, name);
\echo @@step set show reset
SET application_name = 'psql-session';
SHOW application_name;
SET DateStyle = 'ISO, DMY';
SHOW DateStyle;
RESET DateStyle;
SHOW DateStyle;
SHOW TimeZone;
\echo @@step transaction
BEGIN;
SET LOCAL search_path = temp_path;
SHOW search_path;
SAVEPOINT s1;
SELECT 1/0;
ROLLBACK TO SAVEPOINT s1;
SELECT 'still in txn' AS state;
COMMIT;
SHOW search_path;
\echo @@step error in transaction
BEGIN;
SELECT nosuchcolumn;
SELECT 1;
ROLLBACK;
\echo @@step syntax error
SELEC 1;
\echo @@step if elif
\if :answer
\echo answer is true
\else
\echo answer is false
\endif
\echo @@step roles
CREATE ROLE psql_test_role LOGIN;
ALTER ROLE psql_test_role PASSWORD 'secret';
DROP ROLE psql_test_role;
\echo @@step copy to stdout
COPY (SELECT 1 AS a, 'tab	and
newline' AS b, NULL AS c) TO STDOUT;
\copy (SELECT 2, 'client side') TO STDOUT
\echo @@step create table needs=tables
CREATE TABLE psql_items (id serial PRIMARY KEY, name text);
INSERT INTO psql_items (name) VALUES ('a'), ('b') RETURNING id;
\echo @@step describe relations needs=catalog,tables
\d
\echo @@step describe table needs=catalog,tables
\d psql_items
\echo @@step list databases needs=catalog
\l postgres
\echo @@step drop table needs=tables
DROP TABLE psql_items;
\echo @@step end
\echo done
