-- The set-returning json functions in a select list (lockstep) and in FROM:
-- json[b]_array_elements[_text], json[b]_object_keys, json[b]_each[_text].
SELECT jsonb_array_elements('[1, "a", {"b": 2}, null]');
SELECT jsonb_array_elements_text('[1, "a", {"b": 2}, null]') AS t;
SELECT json_array_elements('[1, {"b":2} ]'), json_array_elements_text('["x","y"]');
SELECT jsonb_object_keys('{"b": 1, "a": 2}');
SELECT json_object_keys('{"b": 1, "a": 2, "b": 3}');
SELECT * FROM jsonb_each('{"a":1,"b":"x","c":null}');
SELECT * FROM jsonb_each_text('{"a":1,"b":"x","c":null}');
SELECT key, value FROM json_each('{"a":[1,2]}') ORDER BY key;
SELECT e FROM jsonb_array_elements('[3,1,2]') e ORDER BY e;
SELECT value::int * 2 FROM jsonb_array_elements_text('["1","2"]');
SELECT * FROM jsonb_object_keys('{"z":1,"y":2}');
SELECT k.x FROM jsonb_each('{"q":1}') AS k(x, y);
SELECT jsonb_array_elements('{"a":1}');
SELECT jsonb_array_elements('1');
SELECT jsonb_object_keys('[1]');
SELECT jsonb_object_keys('1');
SELECT * FROM jsonb_each('[1]');
SELECT * FROM json_each('1');
SELECT jsonb_array_elements(NULL);
SELECT jsonb_array_elements('[1]'::json);
CREATE TABLE jt (id int, j jsonb); INSERT INTO jt VALUES (1, '[1,2]'), (2, '[3]'), (3, NULL);
SELECT id, jsonb_array_elements(j) FROM jt ORDER BY 1, 2;
SELECT id, jsonb_array_elements_text(j) AS v, generate_series(1, 2) FROM jt ORDER BY 1, 2, 3;
DROP TABLE jt;
SELECT * FROM jsonb_each_text('1');
SELECT * FROM json_each_text('[1]');
