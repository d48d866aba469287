-- ON CONFLICT: which unique index a conflict target names (a set of
-- columns and expressions, a WHERE that implies a partial index's
-- condition), SET (a, b) = (...) in DO UPDATE, and the errors of names
-- out of reach.
CREATE TABLE ici (id int, name text, qty int DEFAULT 42, n serial);
CREATE UNIQUE INDEX ici_id ON ici (id);
INSERT INTO ici (id, name, qty) VALUES (1, 'one', 1) ON CONFLICT (id, id) DO UPDATE SET qty = ici.qty + 1;
INSERT INTO ici (id, name, qty) VALUES (1, 'uno', 5) ON CONFLICT (id, id, id) DO UPDATE SET qty = ici.qty + excluded.qty;
INSERT INTO ici (id, name, qty) VALUES (1, 'eins', 7), (2, 'zwei', 8)
  ON CONFLICT (id) DO UPDATE SET (name, qty) = (excluded.name, excluded.qty * 10);
INSERT INTO ici (id, name, qty) VALUES (2, 'two', 9)
  ON CONFLICT (id) DO UPDATE SET (qty, name) = (DEFAULT, upper(excluded.name)) RETURNING *;
INSERT INTO ici (id, name, qty) VALUES (2, 'two', 9) ON CONFLICT (id) DO UPDATE SET (qty, name) = (1, 'x', 'y');
INSERT INTO ici (id, name, qty) VALUES (2, 'two', 9) ON CONFLICT (id) DO UPDATE SET qty = 1, qty = 2;
INSERT INTO ici (id, name, qty) VALUES (2, 'two', 9) ON CONFLICT (id) DO UPDATE SET n = DEFAULT RETURNING id, n;
SELECT * FROM ici ORDER BY id;
DROP INDEX ici_id;
CREATE UNIQUE INDEX ici_lower ON ici (lower(name));
INSERT INTO ici (id, name, qty) VALUES (3, 'EINS', 0) ON CONFLICT (lower(name), lower(name)) DO UPDATE SET qty = -1 RETURNING *;
INSERT INTO ici (id, name, qty) VALUES (3, 'EINS', 0) ON CONFLICT (upper(name)) DO NOTHING;
DROP INDEX ici_lower;
-- A partial unique index serves a target whose WHERE implies its condition.
CREATE UNIQUE INDEX ici_big ON ici (id) WHERE qty > 10;
INSERT INTO ici (id, name, qty) VALUES (1, 'big', 11) ON CONFLICT (id) WHERE qty > 10 DO UPDATE SET name = excluded.name;
INSERT INTO ici (id, name, qty) VALUES (1, 'bigger', 12) ON CONFLICT (id) WHERE qty > 10 AND name <> 'x' DO UPDATE SET name = excluded.name;
INSERT INTO ici (id, name, qty) VALUES (1, 'biggest', 13) ON CONFLICT (id) WHERE qty > 20 DO UPDATE SET name = excluded.name;
INSERT INTO ici (id, name, qty) VALUES (1, 'even', 14) ON CONFLICT (id) WHERE qty >= 50 AND qty = 60 DO UPDATE SET name = excluded.name;
INSERT INTO ici (id, name, qty) VALUES (1, 'nope', 15) ON CONFLICT (id) WHERE qty > 5 DO NOTHING;
INSERT INTO ici (id, name, qty) VALUES (1, 'nope', 15) ON CONFLICT (id) WHERE qty > 10 OR name = 'x' DO NOTHING;
INSERT INTO ici (id, name, qty) VALUES (1, 'nope', 15) ON CONFLICT (id) DO NOTHING;
INSERT INTO ici (id, name, qty) VALUES (1, 'nope', 15) ON CONFLICT (name) WHERE qty > 10 DO NOTHING;
SELECT * FROM ici ORDER BY id;
DROP INDEX ici_big;
DELETE FROM ici WHERE qty > 10;
-- Names out of reach.
CREATE UNIQUE INDEX ici_id ON ici (id);
INSERT INTO ici (id, name, qty) VALUES (1, 'a', 1) ON CONFLICT (id) DO UPDATE SET qty = 1 RETURNING excluded.qty;
INSERT INTO ici AS i (id, name, qty) VALUES (1, 'a', 1) ON CONFLICT (id) DO UPDATE SET qty = ici.qty;
INSERT INTO ici AS i (id, name, qty) VALUES (1, 'a', 1) ON CONFLICT (id) DO UPDATE SET qty = i.qty + 100 RETURNING i.qty;
UPDATE ici AS u SET qty = ici.qty WHERE id = 1;
DELETE FROM ici AS d WHERE ici.id = 1;
INSERT INTO ici (id, name, qty) VALUES (1, 'a', 1) ON CONFLICT (id) DO UPDATE SET qty = nosuch.qty;
DROP TABLE ici;
