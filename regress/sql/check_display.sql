-- How CHECK constraints read back: pg_get_constraintdef (plain and pretty)
-- and psql's \d, with PostgreSQL's implicit casts, IN lists as = ANY,
-- and names from the one column an expression reads.
CREATE TABLE ck (id serial, price numeric(10,2) CHECK (price > 0), qty int CHECK (qty >= 0 AND qty < 1000), name varchar(20) CHECK (name <> ''), code char(3) CHECK (code IN ('abc', 'def')), d date CHECK (d > '2020-01-01'), CONSTRAINT pq CHECK (price * qty < 100000), f float8 CHECK (f IS NULL OR f > 1.5), t text CHECK (length(t) > 2), CONSTRAINT lower_t CHECK (lower(t) = t));
\d ck
SELECT conname, pg_get_constraintdef(oid), pg_get_constraintdef(oid, true) FROM pg_constraint WHERE conrelid = 'ck'::regclass ORDER BY conname;
DROP TABLE ck;
CREATE TYPE mood AS ENUM ('sad', 'ok');
CREATE TABLE ck2 (id int CHECK (id > 0), name text CHECK (char_length(name) <= 50), status text CHECK (status IN ('a', 'b')), vs varchar(5) CHECK (vs IN ('x', 'y')), s date, e date, CHECK (e > s), email text CHECK (email LIKE '%@%'), deleted boolean CHECK (NOT deleted), a int, b int, CHECK (a IS NOT NULL OR b IS NOT NULL), price int CHECK (price BETWEEN 0 AND 100), m mood CHECK (m <> 'sad'), big bigint CHECK (big > 5000000000), r real CHECK (r >= 0.5), st text CHECK (status NOT IN ('z')), x numeric CHECK (x > -1), j jsonb CHECK (j ? 'k'), CHECK (a + b < 10), CHECK (upper(name) <> 'X' AND a > b * 2));
\d ck2
SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'ck2'::regclass ORDER BY conname;
DROP TABLE ck2; DROP TYPE mood;
-- names of added CHECK constraints: the one column read, else none
CREATE TABLE ck3 (a int, b int);
ALTER TABLE ck3 ADD CHECK (a > 0);
ALTER TABLE ck3 ADD CHECK (a > b);
ALTER TABLE ck3 ADD CHECK (b > 0 AND b < 10);
ALTER TABLE ck3 ADD COLUMN c int CHECK (a <> 5);
\d ck3
DROP TABLE ck3;
-- SQL value functions in defaults read back in upper case
CREATE TABLE dflt (a timestamptz DEFAULT CURRENT_TIMESTAMP, b date DEFAULT CURRENT_DATE, c text DEFAULT CURRENT_USER, d timestamp DEFAULT LOCALTIMESTAMP(2), e text DEFAULT USER, f text DEFAULT 'current_date', g timestamptz DEFAULT now());
\d dflt
SELECT attname, pg_get_expr(adbin, adrelid) FROM pg_attrdef JOIN pg_attribute ON attrelid = adrelid AND attnum = adnum WHERE adrelid = 'dflt'::regclass ORDER BY adnum;
DROP TABLE dflt;
