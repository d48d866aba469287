-- Row constructors compared field by field, as PostgreSQL compares rows.
SELECT (1, 2) = (1, 2) AS eq, (1, NULL) = (1, 2) AS eq_null,
       (1, NULL) = (2, 2) AS eq_false, (1, NULL) <> (2, 2) AS ne_true,
       (1, NULL) <> (1, 2) AS ne_null;
-- Ordering comparisons are decided by the first unequal or null pair.
SELECT (1, NULL) < (2, NULL) AS a, (1, NULL) < (1, 3) AS b,
       (1, 2, 3) <= (1, 2, 3) AS c, (1, 2, 3) < (1, 2, 3) AS d,
       (2, 1) > (1, 5) AS e, (1, 2) >= (1, NULL) AS f,
       ROW(1, 2, 3) > ROW(1, 2, 2) AS g, (1, 'a') < (1, 'b') AS h,
       ('x'::text, 2.5) > ('x', 2.25) AS i;
SELECT ROW(1, NULL) IS NULL AS a, ROW(NULL, NULL) IS NULL AS b,
       ROW(1, NULL) IS NOT NULL AS c, ROW(1, 2) IS NOT NULL AS d,
       ROW(NULL, NULL) IS NOT NULL AS e;
SELECT (1, 2) IS DISTINCT FROM (1, 2) AS a,
       (1, NULL) IS DISTINCT FROM (1, NULL) AS b,
       (1, NULL) IS NOT DISTINCT FROM (1, 2) AS c,
       (NULL, 2) IS NOT DISTINCT FROM (NULL, 2) AS d;
-- Keyset pagination over a table.
CREATE TABLE kp (id int PRIMARY KEY, ts int, v text);
INSERT INTO kp SELECT g, g % 5, 'v' || g FROM generate_series(1, 20) g;
INSERT INTO kp VALUES (21, NULL, 'null ts');
SELECT * FROM kp WHERE (ts, id) > (2, 12) ORDER BY ts, id LIMIT 5;
SELECT * FROM kp WHERE (ts, id) < (1, 11) ORDER BY ts DESC, id DESC;
SELECT * FROM kp WHERE (ts, v) = (3, 'v8');
SELECT id FROM kp WHERE (ts, id) IN ((1, 1), (1, 6), (4, 4), (NULL, 21)) ORDER BY id;
SELECT id FROM kp WHERE (ts, id) NOT IN ((1, 1), (1, 6), (4, 4)) AND id < 8 ORDER BY id;
SELECT id FROM kp WHERE (ts, id) IS NOT DISTINCT FROM (NULL, 21);
PREPARE page(int, int) AS
  SELECT id, ts FROM kp WHERE (ts, id) >= ($1, $2) ORDER BY ts, id LIMIT 3;
EXECUTE page(3, 13);
EXECUTE page(4, 20);
DEALLOCATE page;
-- Errors.
SELECT (1, 2) = (1, 2, 3);
SELECT (1, 2) < (1, 'x');
SELECT (1, 2) + (3, 4);
SELECT (1, 2) = 1;
SELECT 1 FROM kp WHERE (ts, nope) = (1, 2);
DROP TABLE kp;
