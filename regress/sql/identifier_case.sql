-- Quoted identifiers are case-sensitive: tables, indexes, schemas and
-- constraints whose names differ only in case are distinct objects.
CREATE TABLE "RT" (a int PRIMARY KEY, b text UNIQUE);
CREATE TABLE rt (a serial PRIMARY KEY, b text);
CREATE TABLE "Rt" (x int);
INSERT INTO "RT" VALUES (1, 'one'), (2, 'two');
INSERT INTO rt (b) VALUES ('x'), ('y');
INSERT INTO "Rt" VALUES (10);
SELECT * FROM "RT" ORDER BY a;
SELECT * FROM rt ORDER BY a;
SELECT * FROM "Rt";
-- Duplicates report the right constraint.
INSERT INTO "RT" VALUES (1, 'again');
INSERT INTO "RT" VALUES (3, 'one');
INSERT INTO rt VALUES (1, 'dup');
-- Indexes named alike.
CREATE UNIQUE INDEX "Idx" ON rt (b);
CREATE UNIQUE INDEX idx ON "RT" (b, a);
CREATE INDEX "IDX" ON "Rt" (x);
INSERT INTO rt (b) VALUES ('x');
SELECT c.relname, i.relname AS index
  FROM pg_index x JOIN pg_class c ON c.oid = x.indrelid
  JOIN pg_class i ON i.oid = x.indexrelid
 WHERE c.relname IN ('RT', 'rt', 'Rt') ORDER BY 1, 2;
DROP INDEX "Idx";
INSERT INTO rt (b) VALUES ('x');
SELECT count(*) FROM rt WHERE b = 'x';
-- Schemas named alike.
CREATE SCHEMA "Sales";
CREATE SCHEMA sales;
CREATE TABLE "Sales".orders (id serial PRIMARY KEY, amount int);
CREATE TABLE sales.orders (id serial PRIMARY KEY, amount int);
INSERT INTO "Sales".orders (amount) VALUES (100);
INSERT INTO sales.orders (amount) VALUES (5), (6);
SELECT * FROM "Sales".orders;
SELECT * FROM sales.orders ORDER BY id;
SELECT last_value FROM "Sales".orders_id_seq;
SELECT last_value FROM sales.orders_id_seq;
-- Renames into a name that differs only in case.
ALTER TABLE "Rt" RENAME TO "rT";
SELECT * FROM "rT";
SELECT * FROM rt ORDER BY a;
DROP TABLE "RT";
SELECT * FROM rt ORDER BY a;
SELECT * FROM "rT";
DROP TABLE rt, "rT";
DROP SCHEMA "Sales" CASCADE;
DROP SCHEMA sales CASCADE;
