-- Data-modifying WITH queries: INSERT / UPDATE / DELETE ... RETURNING in
-- WITH, read by the rest of the statement; atomic with it.
CREATE TABLE items (id serial PRIMARY KEY, name text, qty int);
CREATE TABLE archive (id int, name text, qty int);
INSERT INTO items (name, qty) VALUES ('a', 1), ('b', 0), ('c', 5), ('d', 0);
WITH moved AS (DELETE FROM items WHERE qty = 0 RETURNING *) INSERT INTO archive SELECT * FROM moved;
SELECT * FROM archive ORDER BY id;
SELECT * FROM items ORDER BY id;
WITH ins AS (INSERT INTO items (name, qty) VALUES ('e', 7), ('f', 8) RETURNING id, name) SELECT name, id FROM ins ORDER BY id;
WITH upd AS (UPDATE items SET qty = qty + 1 WHERE qty > 4 RETURNING name, qty) SELECT count(*), sum(qty) FROM upd;
WITH d AS (DELETE FROM items WHERE false RETURNING id) SELECT count(*) FROM d;
WITH x AS (INSERT INTO archive VALUES (100, 'z', 1)) SELECT 1 AS one;
SELECT count(*) FROM archive;
WITH a AS (UPDATE items SET qty = 0 WHERE name = 'a' RETURNING id), b AS (DELETE FROM archive WHERE id = 100 RETURNING id) SELECT (SELECT count(*) FROM a) AS a, (SELECT count(*) FROM b) AS b;
WITH ins(i, n) AS (INSERT INTO items (name) VALUES ('g') RETURNING id, name) UPDATE archive SET name = ins.n FROM ins WHERE archive.id = 2 RETURNING archive.*;
-- a failure in the rest undoes the WITH query
WITH ins AS (INSERT INTO items (name, qty) VALUES ('h', 1) RETURNING id) SELECT 1 / 0 FROM ins;
SELECT count(*) FROM items WHERE name = 'h';
BEGIN;
WITH ins AS (INSERT INTO items (name, qty) VALUES ('i', 1) RETURNING id) SELECT count(*) FROM ins;
ROLLBACK;
SELECT count(*) FROM items WHERE name = 'i';
-- prepared, with parameters in both parts
PREPARE p(text, int) AS WITH ins AS (INSERT INTO items (name, qty) VALUES ($1, $2) RETURNING id, qty) SELECT qty * $2 AS q FROM ins;
EXECUTE p('j', 3);
EXECUTE p('k', 4);
SELECT name, qty FROM items ORDER BY id;
DROP TABLE items, archive;
