-- kova-specific
-- Data-modifying WITH queries Kova refuses with 0A000 (PostgreSQL runs
-- them). Kova runs the WITH query before the rest of the statement, so a
-- statement whose rest reads the table it changes (PostgreSQL shows that
-- part the table as it was before the statement) is refused rather than
-- answered differently; nothing is changed.
\set VERBOSITY verbose
CREATE TABLE wdu (id int, v text);
INSERT INTO wdu VALUES (1, 'a'), (2, 'b');
WITH d AS (DELETE FROM wdu WHERE id = 1 RETURNING *) SELECT count(*) FROM wdu;
WITH d AS (UPDATE wdu SET v = 'x' RETURNING *) SELECT * FROM d JOIN wdu USING (id);
SELECT * FROM wdu ORDER BY id;
-- A data-modifying WITH query that reads another WITH query.
WITH src AS (SELECT 3 AS id), ins AS (INSERT INTO wdu SELECT id, 'c' FROM src RETURNING *) SELECT * FROM ins;
-- WITH RECURSIVE with a data-modifying query.
WITH RECURSIVE ins AS (INSERT INTO wdu VALUES (4, 'd') RETURNING *) SELECT * FROM ins;
-- Not at the top level: PostgreSQL refuses this too, with the same error.
SELECT * FROM (WITH ins AS (INSERT INTO wdu VALUES (5, 'e') RETURNING *) SELECT * FROM ins) s;
SELECT count(*) FROM wdu;
DROP TABLE wdu;
