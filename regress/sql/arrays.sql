-- Arrays (issue 5 scope, not built yet): this file is not in the schedule
-- until Kova stores arrays; its expected output is PostgreSQL 15's.
CREATE TABLE ins_arrays (a int[], t text[]);
INSERT INTO ins_arrays VALUES ('{1,2,NULL}', '{"a b",c}'), (ARRAY[3], ARRAY['x']);
SELECT * FROM ins_arrays ORDER BY a;
DROP TABLE ins_arrays;
