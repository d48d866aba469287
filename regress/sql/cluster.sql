--
-- CLUSTER: the table is rewritten in the index's order, which a scan
-- without ORDER BY then returns; the index becomes the clustered one.
--
CREATE TABLE cl_t (id int PRIMARY KEY, name text, score numeric, d date);
INSERT INTO cl_t VALUES (5, 'e', 2.5, '2024-01-05'), (2, 'b', NULL, '2024-01-02'),
  (9, 'i', -1, NULL), (1, 'a', 10, '2024-01-01'), (7, 'g', 2.25, '2024-01-07');
CREATE INDEX cl_t_score ON cl_t (score DESC NULLS LAST);
CREATE INDEX cl_t_name_len ON cl_t ((length(name) * 10 - id));
CREATE INDEX cl_t_part ON cl_t (d) WHERE d IS NOT NULL;
CREATE INDEX cl_t_hash ON cl_t USING hash (name);
CLUSTER cl_t;
CLUSTER cl_t USING cl_t_pkey;
SELECT id FROM cl_t;
SELECT indexrelid::regclass::text AS index, indisclustered FROM pg_index
  WHERE indrelid = 'cl_t'::regclass ORDER BY 1;
CLUSTER cl_t USING cl_t_score;
SELECT id, score FROM cl_t;
CLUSTER cl_t USING cl_t_name_len;
SELECT id FROM cl_t;
-- the clustered index is remembered
INSERT INTO cl_t VALUES (3, 'c', 100, '2024-01-03');
CLUSTER cl_t USING cl_t_score;
CLUSTER cl_t;
SELECT id FROM cl_t;
-- errors
CLUSTER cl_t USING cl_t_part;
CLUSTER cl_t USING cl_t_hash;
CLUSTER cl_t USING nope;
CLUSTER nope;
CLUSTER (nope) cl_t;
BEGIN;
CLUSTER;
ROLLBACK;
-- in a transaction, undone by ROLLBACK
BEGIN;
CLUSTER cl_t USING cl_t_pkey;
SELECT id FROM cl_t;
ROLLBACK;
SELECT id FROM cl_t;
-- every clustered table at once
CLUSTER;
SELECT id, name FROM cl_t;
\d cl_t
DROP TABLE cl_t;
