-- CREATE [UNIQUE] INDEX over expressions: uniqueness, errors, display,
-- ON CONFLICT, and ALTER TABLE on the columns the expressions read.
CREATE TABLE users (id serial PRIMARY KEY, email varchar(100), name text, n int, price numeric(10,2));
CREATE UNIQUE INDEX users_email_lower ON users (lower(email));
CREATE INDEX ON users (lower(name), (n + 1));
CREATE INDEX ON users ((n * 2) DESC NULLS LAST);
CREATE INDEX ON users ((price * 2), (n::text), coalesce(name, ''));
INSERT INTO users (email, name, n, price) VALUES ('A@x.com', 'Al', 1, 1.50), ('b@x.com', 'Bo', 2, 2);
-- a key equal after lower(): refused, with the expression in DETAIL
INSERT INTO users (email, name, n) VALUES ('a@X.com', 'Al2', 3);
-- NULL keys do not collide
INSERT INTO users (email, name, n) VALUES (NULL, 'n1', 3), (NULL, 'n2', 4);
UPDATE users SET email = 'B@X.COM' WHERE id = 1;
UPDATE users SET email = 'c@x.com' WHERE id = 1;
SELECT id, email FROM users WHERE lower(email) = 'c@x.com';
COPY users (email, name, n) FROM stdin;
d@x.com	Di	5
C@X.COM	Cy	6
\.
SELECT count(*) FROM users;
\d users
SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'users' ORDER BY 1;
SELECT pg_get_indexdef('users_email_lower'::regclass);
SELECT pg_get_indexdef('users_lower_expr_idx'::regclass, 2, true), pg_get_indexdef('users_lower_expr_idx'::regclass, 2, false);
SELECT indkey, indnatts, indexprs IS NOT NULL AS has_exprs FROM pg_index WHERE indexrelid = 'users_lower_expr_idx'::regclass;
SELECT attname, attnum, atttypid::regtype FROM pg_attribute WHERE attrelid = 'users_expr_n_coalesce_idx'::regclass ORDER BY attnum;
-- PostgreSQL's errors
CREATE INDEX bad ON users ((random()));
CREATE INDEX bad ON users ((now()));
CREATE INDEX bad ON users (to_char(n, '999'));
CREATE INDEX bad ON users ((nosuch + 1));
CREATE INDEX bad ON users (lower(n));
CREATE INDEX bad ON users ((count(*)));
CREATE INDEX bad ON users (((SELECT 1)));
CREATE UNIQUE INDEX bad ON users ((n % 2));
-- a parenthesized column is a column key
CREATE INDEX users_n_paren ON users ((n));
SELECT indkey FROM pg_index WHERE indexrelid = 'users_n_paren'::regclass;
-- ON CONFLICT on an expression
INSERT INTO users (email) VALUES ('A@x.com') ON CONFLICT (lower(email)) DO NOTHING;
INSERT INTO users (email) VALUES ('A@X.COM') ON CONFLICT (lower(email)) DO NOTHING;
INSERT INTO users (email) VALUES ('C@x.com') ON CONFLICT (lower(email)) DO UPDATE SET name = 'conflict ' || excluded.email;
INSERT INTO users (email) VALUES ('q@x.com') ON CONFLICT (upper(email)) DO NOTHING;
SELECT id, email, name FROM users ORDER BY id;
-- an error while computing a key fails the statement
CREATE TABLE ratios (a int, b int);
CREATE INDEX ratios_q ON ratios ((a / b));
INSERT INTO ratios VALUES (4, 2);
INSERT INTO ratios VALUES (1, 0);
SELECT * FROM ratios;
-- rename and retype a column an expression reads
ALTER TABLE users RENAME COLUMN email TO mail;
\d users
INSERT INTO users (mail) VALUES ('E@x.com'), ('e@x.com');
ALTER TABLE users ALTER COLUMN mail TYPE text;
INSERT INTO users (mail) VALUES ('D@X.com');
\d users
-- a type the expression does not take fails, and changes nothing
CREATE TABLE codes (c text);
CREATE INDEX codes_upper ON codes (upper(c));
INSERT INTO codes VALUES ('1'), ('2');
ALTER TABLE codes ALTER COLUMN c TYPE int USING c::int;
SELECT * FROM codes ORDER BY c;
CREATE UNIQUE INDEX codes_len ON codes (length(c));
INSERT INTO codes VALUES ('3');
DROP TABLE codes;
ALTER TABLE users DROP COLUMN mail;
\d users
-- CREATE TABLE LIKE copies expression indexes
CREATE TABLE users2 (LIKE users INCLUDING INDEXES);
\d users2
DROP TABLE users, users2, ratios;
