--
-- VALUES with ORDER BY, LIMIT and OFFSET; ORDER BY errors of set operations
--
VALUES (1, 'a'), (2, 'b') order by 1 desc;
VALUES (1, 'a'), (null, 'b'), (3, 'c') order by column1;
VALUES (1, 'a'), (null, 'b'), (3, 'c') order by column1 desc nulls last limit 2;
VALUES (1), (2), (3) offset 1;
VALUES (1), (2), (3) limit 1 offset 1;
VALUES (1), (2) order by x;
VALUES (1), (2) order by 3;
select * from (values (2), (1) order by 1) v;
SELECT 1 AS a UNION SELECT 2 ORDER BY b;
SELECT 1 AS a UNION SELECT 2 ORDER BY 2;
SELECT 1 AS a UNION SELECT 2 ORDER BY a DESC LIMIT 1;
