--
-- DEFERRABLE primary keys and unique constraints: checked when the
-- statement ends (INITIALLY IMMEDIATE) or at commit (INITIALLY DEFERRED, or
-- SET CONSTRAINTS ... DEFERRED), so keys may pass through duplicates.
--
CREATE TABLE du_t (id int PRIMARY KEY DEFERRABLE,
                   v int UNIQUE DEFERRABLE INITIALLY DEFERRED, w text);
INSERT INTO du_t VALUES (1, 1), (2, 2), (3, 3);
-- every row moves up one: duplicates only inside the statement
UPDATE du_t SET id = id + 1;
SELECT * FROM du_t ORDER BY id;
UPDATE du_t SET id = 2 WHERE id = 3;
INSERT INTO du_t VALUES (5, 5), (5, 6);
INSERT INTO du_t VALUES (6, 60), (7, 70);
-- a deferred key may be duplicated until COMMIT
BEGIN;
UPDATE du_t SET v = 2 WHERE id = 2;
SELECT id, v FROM du_t ORDER BY id;
COMMIT;
BEGIN;
UPDATE du_t SET v = v + 1 WHERE id < 5;
UPDATE du_t SET v = 1 WHERE v = 4;
COMMIT;
SELECT id, v FROM du_t ORDER BY id;
-- SET CONSTRAINTS
BEGIN;
SET CONSTRAINTS du_t_v_key IMMEDIATE;
UPDATE du_t SET v = 3 WHERE id = 2;
ROLLBACK;
BEGIN;
INSERT INTO du_t VALUES (10, 1);
SET CONSTRAINTS ALL IMMEDIATE;
ROLLBACK;
BEGIN;
SET CONSTRAINTS ALL DEFERRED;
INSERT INTO du_t VALUES (4, 40);
UPDATE du_t SET id = 40 WHERE v = 40;
COMMIT;
SELECT id, v FROM du_t ORDER BY id;
-- a savepoint rolled back takes its duplicate with it
BEGIN;
INSERT INTO du_t VALUES (41, 41);
SAVEPOINT s;
INSERT INTO du_t VALUES (42, 41);
ROLLBACK TO SAVEPOINT s;
COMMIT;
SELECT count(*) FROM du_t WHERE v = 41;
-- ON CONFLICT cannot use a deferrable key
INSERT INTO du_t VALUES (11, 11) ON CONFLICT (v) DO NOTHING;
INSERT INTO du_t VALUES (11, 11) ON CONFLICT (id) DO NOTHING;
INSERT INTO du_t VALUES (11, 11) ON CONFLICT DO NOTHING;
-- COPY
COPY du_t FROM stdin;
20	20	a
21	20	b
\.
SELECT count(*) FROM du_t WHERE id >= 20;
-- ADD CONSTRAINT ... DEFERRABLE: stored duplicates refuse the index
INSERT INTO du_t VALUES (30, 30, 'x'), (31, 31, 'x');
ALTER TABLE du_t ADD CONSTRAINT du_t_w_key UNIQUE (w) DEFERRABLE;
UPDATE du_t SET w = NULL;
ALTER TABLE du_t ADD CONSTRAINT du_t_w_key UNIQUE (w) DEFERRABLE;
UPDATE du_t SET w = 'same' WHERE id IN (30, 31);
UPDATE du_t SET w = CASE id WHEN 30 THEN 'b' WHEN 31 THEN 'a' END
  WHERE id IN (30, 31);
UPDATE du_t SET w = CASE id WHEN 30 THEN 'a' WHEN 31 THEN 'b' END
  WHERE id IN (30, 31);
SELECT id, w FROM du_t WHERE w IS NOT NULL ORDER BY id;
\d du_t
-- two columns, and NULLS NOT DISTINCT
CREATE TABLE du_m (a int, b int, UNIQUE (a, b) DEFERRABLE,
                   c int UNIQUE NULLS NOT DISTINCT DEFERRABLE);
INSERT INTO du_m VALUES (1, 1, 1), (1, 2, 2), (1, NULL, NULL), (1, NULL, 3);
UPDATE du_m SET b = 3 - b WHERE b IS NOT NULL;
SELECT * FROM du_m ORDER BY a, b, c;
UPDATE du_m SET b = 1;
INSERT INTO du_m VALUES (2, 2, NULL);
UPDATE du_m SET c = c + 1 WHERE c IS NOT NULL;
SELECT * FROM du_m ORDER BY a, b, c;
DROP TABLE du_t, du_m;
