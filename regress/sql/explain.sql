-- kova-specific
-- EXPLAIN shows the plan SQLite chose for the statement's translation, laid
-- out as PostgreSQL's text format and named in its terms, over the
-- statement's own table and index names. Kova keeps no costs or row
-- estimates, so PostgreSQL's "(cost=... rows=... width=...)" is not shown,
-- and its plans may differ from PostgreSQL's: this file's expected output is
-- Kova's own, reviewed.
CREATE TABLE users (id serial PRIMARY KEY, email text, name text, n int);
CREATE UNIQUE INDEX users_email_lower ON users (lower(email));
CREATE INDEX users_n ON users (n);
INSERT INTO users (email, name, n) SELECT 'u' || g || '@x', 'n' || g, g % 10 FROM generate_series(1, 100) g;
EXPLAIN SELECT * FROM users WHERE id = 5;
-- the expression index serves the expression
EXPLAIN SELECT * FROM users WHERE lower(email) = 'u5@x';
EXPLAIN SELECT * FROM users WHERE name = 'n5';
EXPLAIN SELECT * FROM users ORDER BY name LIMIT 3;
EXPLAIN SELECT u.id FROM users u JOIN users v ON v.id = u.n WHERE u.n = 3;
EXPLAIN (COSTS OFF) SELECT id FROM users WHERE n IN (1, 2);
EXPLAIN SELECT 1;
EXPLAIN UPDATE users SET name = 'x' WHERE n = 2;
EXPLAIN DELETE FROM users WHERE id = 1;
EXPLAIN INSERT INTO users (email) VALUES ('new@x');
-- EXPLAIN alone changes nothing; EXPLAIN ANALYZE runs the statement (its
-- output, with the execution time, is not shown here)
SELECT count(*) FROM users WHERE name = 'x';
\o /dev/null
EXPLAIN ANALYZE UPDATE users SET name = 'x' WHERE n = 2;
\o
SELECT count(*) FROM users WHERE name = 'x';
EXPLAIN (FORMAT JSON) SELECT 1;
DROP TABLE users;
