-- json(b)_to_record and json(b)_to_recordset in FROM, with a column
-- definition list (bulk loads from one JSON parameter).
SELECT * FROM json_to_record('{"a":1,"b":"x","c":[1,2],"d":true,"e":null}') AS r(a int, b text, c json, d boolean, e text, f int);
SELECT * FROM jsonb_to_recordset('[{"id":1,"name":"a","price":1.50},{"id":2,"name":"b","price":null},{"id":3}]') AS x(id int, name varchar(5), price numeric);
CREATE TABLE jr (id int PRIMARY KEY, name text, qty int);
INSERT INTO jr SELECT * FROM json_to_recordset('[{"id":1,"name":"n1","qty":3},{"id":2,"name":"n2","qty":"4"}]') AS t(id int, name text, qty int);
SELECT * FROM jr ORDER BY id;
PREPARE bulk(json) AS INSERT INTO jr SELECT * FROM json_to_recordset($1) AS t(id int, name text, qty int) ON CONFLICT (id) DO UPDATE SET qty = excluded.qty RETURNING *;
EXECUTE bulk('[{"id":2,"name":"n2","qty":40},{"id":3,"name":"n3","qty":5}]');
SELECT j.x, r.* FROM (VALUES (1), (2)) j(x), jsonb_to_record('{"k": "v"}') AS r(k text);
SELECT t.id, r.a FROM jr t, jsonb_to_record(jsonb_build_object('a', t.qty * 2)) AS r(a int) ORDER BY 1;
SELECT * FROM json_to_record('{"a":"notint"}') AS r(a int);
SELECT * FROM json_to_record('{"a":1}');
SELECT * FROM json_to_record('{"a":{"b":1},"s":"q\"t"}') AS r(a jsonb, s json, "A" int);
DROP TABLE jr;
