-- FETCH FIRST ... WITH TIES: the rows up to the count, then every row that
-- ties with the last of them in ORDER BY order (after OFFSET, if any).
CREATE TABLE ties (a int, b text);
INSERT INTO ties VALUES (1, 'x'), (2, 'y'), (2, 'z'), (3, 'w'), (3, 'v'),
  (4, NULL), (NULL, 'n');

SELECT * FROM (SELECT * FROM ties ORDER BY a FETCH FIRST 2 ROWS WITH TIES) s
  ORDER BY a, b;
SELECT * FROM (SELECT * FROM ties ORDER BY a FETCH FIRST 4 ROWS WITH TIES) s
  ORDER BY a, b;
SELECT * FROM ties ORDER BY a, b FETCH FIRST 2 ROWS WITH TIES;
SELECT * FROM ties ORDER BY a FETCH FIRST ROW WITH TIES;
-- OFFSET first, then the count and the ties of the last row taken.
SELECT * FROM (SELECT * FROM ties ORDER BY a OFFSET 1 ROW
               FETCH FIRST 1 ROW WITH TIES) s ORDER BY a, b;
-- A count of 0 takes nothing, even a row that ties with a skipped one.
SELECT * FROM ties ORDER BY a OFFSET 2 ROWS FETCH FIRST 0 ROWS WITH TIES;
SELECT * FROM ties ORDER BY a OFFSET 2 ROWS FETCH FIRST 1 ROW WITH TIES;
-- NULLs sort last ascending and first descending, as ORDER BY puts them.
SELECT * FROM ties ORDER BY a DESC FETCH FIRST 1 ROW WITH TIES;
SELECT * FROM ties ORDER BY a DESC NULLS LAST FETCH FIRST 1 ROW WITH TIES;
-- Keys that are not output columns, aggregates, DISTINCT, set operations.
SELECT * FROM (SELECT b FROM ties ORDER BY a + 0 FETCH FIRST 2 ROWS WITH TIES) s
  ORDER BY b;
SELECT * FROM (SELECT a, count(*) FROM ties GROUP BY a ORDER BY count(*) DESC
               FETCH FIRST 1 ROW WITH TIES) s ORDER BY a;
SELECT DISTINCT a FROM ties ORDER BY a FETCH FIRST 2 ROWS WITH TIES;
SELECT a FROM ties UNION ALL SELECT a FROM ties ORDER BY a
  FETCH NEXT 3 ROWS WITH TIES;
SELECT * FROM (VALUES (1), (1), (2)) v(x) ORDER BY x FETCH FIRST ROW WITH TIES;
SELECT DISTINCT ON (a) a, b FROM ties ORDER BY a, b FETCH FIRST 2 ROWS WITH TIES;
SELECT (SELECT count(*) FROM (SELECT * FROM ties ORDER BY a
                              FETCH FIRST 2 ROWS WITH TIES) s);
-- The count as a parameter.
PREPARE ties_count(int) AS
  SELECT a FROM ties ORDER BY a FETCH FIRST $1 ROWS WITH TIES;
EXECUTE ties_count(2);
EXECUTE ties_count(3);
DEALLOCATE ties_count;
-- Errors.
SELECT * FROM ties ORDER BY a FETCH FIRST NULL ROWS WITH TIES;
SELECT * FROM ties ORDER BY a FETCH FIRST -1 ROWS WITH TIES;
SELECT * FROM ties FETCH FIRST 1 ROW WITH TIES;
SELECT * FROM ties ORDER BY a FETCH FIRST 1 ROW WITH TIES FOR UPDATE SKIP LOCKED;
-- LIMIT NULL is no limit and a negative LIMIT an error, on set operations too.
SELECT a FROM ties UNION SELECT a FROM ties ORDER BY a LIMIT NULL OFFSET 2;
SELECT a FROM ties UNION SELECT a FROM ties ORDER BY a LIMIT -1;
SELECT a FROM ties UNION SELECT a FROM ties ORDER BY a OFFSET -1;
-- A NULL constant as the count WITH TIES is refused when the statement is
-- analysed (a view too); a NULL computed when it runs means no limit.
SELECT a FROM ties ORDER BY a FETCH FIRST NULL ROWS WITH TIES;
CREATE VIEW ties_null AS SELECT a FROM ties ORDER BY a FETCH FIRST NULL ROWS WITH TIES;
SELECT a FROM ties ORDER BY a FETCH FIRST (NULL + 1) ROWS WITH TIES;
SELECT a FROM ties ORDER BY a OFFSET 3 FETCH FIRST NULL::int ROWS WITH TIES;
SELECT a FROM ties UNION ALL SELECT a FROM ties ORDER BY a FETCH FIRST NULL ROWS WITH TIES;
SELECT a FROM ties UNION SELECT a FROM ties ORDER BY a FETCH FIRST (NULL::bigint) ROWS WITH TIES;
SELECT a FROM ties ORDER BY a FETCH FIRST 0 ROWS WITH TIES;
DROP TABLE ties;
