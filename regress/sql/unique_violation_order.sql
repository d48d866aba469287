--
-- A row that collides in several unique indexes: the error names the first
-- created, as PostgreSQL checks them, and ON CONFLICT acts on its arbiter
-- wherever else the row collides.
--
CREATE TABLE oc (id int PRIMARY KEY, code text UNIQUE, n int);
CREATE UNIQUE INDEX oc_n ON oc (n);
INSERT INTO oc VALUES (1, 'a', 0);
INSERT INTO oc VALUES (1, 'a', 0);
INSERT INTO oc VALUES (2, 'a', 0);
INSERT INTO oc VALUES (2, 'b', 0);
INSERT INTO oc VALUES (1, 'a', 1) ON CONFLICT (id) DO NOTHING;
INSERT INTO oc VALUES (1, 'a', 1) ON CONFLICT (code) DO NOTHING;
INSERT INTO oc VALUES (1, 'a', 1) ON CONFLICT DO NOTHING;
INSERT INTO oc VALUES (1, 'z', 0) ON CONFLICT (id) DO UPDATE SET n = oc.n + 10
  RETURNING *;
INSERT INTO oc VALUES (5, 'a', 7) ON CONFLICT (code) DO UPDATE SET n = excluded.n
  RETURNING *;
INSERT INTO oc VALUES (6, 'a', 7) ON CONFLICT (id) DO NOTHING;
INSERT INTO oc VALUES (6, 'a', 7) ON CONFLICT ON CONSTRAINT oc_pkey DO NOTHING;
INSERT INTO oc VALUES (1, 'q', 3), (3, 'a', 3) ON CONFLICT (id) DO NOTHING;
INSERT INTO oc VALUES (2, 'b', 2), (3, 'c', 3);
UPDATE oc SET id = 1, code = 'a' WHERE id = 2;
UPDATE oc SET code = 'a', n = 7 WHERE id = 2;
UPDATE oc SET n = 7 WHERE id = 2;
UPDATE oc SET id = id + 1;
SELECT * FROM oc ORDER BY id;
-- Several rows in one statement: the collision with an earlier row of it.
INSERT INTO oc VALUES (10, 'p', 10), (11, 'p', 10);
-- NULLs: distinct unless the index says otherwise.
CREATE TABLE nn (a int, b int, c int);
CREATE UNIQUE INDEX nn_a ON nn (a);
CREATE UNIQUE INDEX nn_bc ON nn (b, c) NULLS NOT DISTINCT;
CREATE UNIQUE INDEX nn_c ON nn (c);
INSERT INTO nn VALUES (NULL, 1, NULL), (1, 2, 2);
INSERT INTO nn VALUES (NULL, 1, NULL);
INSERT INTO nn VALUES (1, 2, 2);
INSERT INTO nn VALUES (2, 3, 2);
INSERT INTO nn VALUES (NULL, 1, NULL) ON CONFLICT (c) DO NOTHING;
INSERT INTO nn VALUES (1, 5, 5) ON CONFLICT (c) DO NOTHING;
SELECT * FROM nn ORDER BY a, b;
-- COPY reports the same index.
COPY oc FROM STDIN;
100	a	100
\.
-- A serial key beside a unique column.
CREATE TABLE people (id serial PRIMARY KEY, email text UNIQUE);
INSERT INTO people (email) VALUES ('a@x');
INSERT INTO people (id, email) VALUES (1, 'a@x');
INSERT INTO people (id, email) VALUES (1, 'a@x') ON CONFLICT (id) DO NOTHING;
INSERT INTO people (id, email) VALUES (1, 'a@x') ON CONFLICT (email)
  DO UPDATE SET email = 'b@x' RETURNING *;
DROP TABLE oc, nn, people;
