--
-- json/jsonb functions and operators, CASE with an operand, misc functions.
--
SELECT '{"a": {"b": [1, 2]}, "c": "x"}'::jsonb -> 'a',
       '{"a": {"b": [1, 2]}, "c": "x"}'::jsonb ->> 'c',
       '{"a": {"b": [1, 2]}, "c": "x"}'::jsonb #> '{a,b}',
       '{"a": {"b": [1, 2]}, "c": "x"}'::jsonb #>> '{a,b,1}',
       '[1, 2, 3]'::jsonb -> -1, '[1, 2, 3]'::jsonb -> 5, '{"a": null}'::jsonb ->> 'a';
SELECT '{"a":1,  "b": [1,2]}'::json -> 'b', '{"a":1}'::json ->> 'a',
       '[1, "x"]'::json ->> 1, '{"a": {"b": 1}}'::json #> '{a}';
SELECT '{"a":1, "b":2}'::jsonb - 'a', '[1, 2, 3]'::jsonb - 1,
       '{"a":1}'::jsonb ? 'a', '["a", "b"]'::jsonb ? 'b',
       '[1, 2]'::jsonb @> '[1]', '{"a": 1, "b": {"c": 2}}'::jsonb @> '{"b": {"c": 2}}',
       '{"a":1}'::jsonb <@ '{"a":1,"b":2}', '{"a":1}'::jsonb @> '{"a":2}';
SELECT json_typeof('{}'), json_typeof('[]'), json_typeof('"x"'), jsonb_typeof('1.5'),
       jsonb_typeof('true'), jsonb_typeof('null'), json_array_length('[1,2]'),
       jsonb_array_length('[]');
SELECT jsonb_array_length('{}');
SELECT jsonb_pretty('{"a": [1, {"b": null}], "c": {}}');
SELECT json_build_object('a', 1, 'b', 'x', 'c', NULL, 'd', true),
       jsonb_build_object('a', 1.50, 'b', false), json_build_array(1, 'a', NULL),
       jsonb_build_array(), json_build_object();
SELECT json_build_object('a');
SELECT json_build_object(NULL, 1);
SELECT to_json('a"b'::text), to_json(date '2020-01-02'),
       to_json(timestamptz '2020-01-02 03:04:05+00'),
       to_json(timestamp '2020-01-02 03:04:05'), to_jsonb(1.50), to_json(true),
       to_json('NaN'::float8), to_jsonb('{"b": 1, "a": 2}'::json);
SELECT '{}'::json = '{}'::json;
SELECT '{"a": 1}'::jsonb = '{"a":1}'::jsonb;
-- CASE with an operand, NULLIF, COALESCE, GREATEST
SELECT CASE 2 WHEN 1 THEN 'one' WHEN 2 THEN 'two' ELSE 'other' END,
       CASE 'b' WHEN 'a' THEN 1 END, CASE 1.0 WHEN 1 THEN 'numeric' END,
       nullif(1, 1), nullif('a', 'b'), coalesce(NULL, 2, 3), greatest(1, 2.5),
       least('b', 'a');
-- misc
SELECT num_nulls(NULL, NULL), num_nonnulls(), pg_typeof(gen_random_uuid()),
       length(gen_random_uuid()::text);
SELECT num_nonnulls();
SELECT 5 & 3, 5 | 3, 5 # 3, ~5, 1 << 4, -16 >> 2, pg_typeof(1::int8 << 2);
SELECT true AND NULL, false OR NULL, true > false, true = 't', NOT true;
-- over a table
CREATE TABLE fj_t (id int, j jsonb, js json, k text);
INSERT INTO fj_t VALUES (1, '{"a": {"b": [1, 2]}, "c": "x"}', '{"a": 1, "b": [1,2]}', 'c'),
  (2, '[1, "a", null]', '[]', 'a'), (3, NULL, NULL, NULL);
SELECT id, j -> 'a', j ->> k, j #> '{a,b}', j #>> '{a,b,1}', js -> 'a', js ->> 'b',
       j @> '{"c": "x"}', j ? 'c', jsonb_typeof(j), json_typeof(js), to_json(k),
       jsonb_build_object('k', id, 't', k), CASE id WHEN 1 THEN 'one' ELSE 'many' END
  FROM fj_t ORDER BY id;
SELECT id FROM fj_t WHERE j ->> 'c' = 'x';
DROP TABLE fj_t;
-- json syntax errors: DETAIL and the CONTEXT line PostgreSQL shows (the line up to the error, ... when cut)
SELECT 'x'::jsonb;
SELECT 'x'::json;
SELECT '{"a":}'::jsonb;
SELECT '{"a": 1'::json;
SELECT '[1, 2,'::jsonb;
SELECT E'{"a":\n 1,\n x}'::jsonb;
SELECT '{"a": tru}'::jsonb;
SELECT '"\u00"'::jsonb;
SELECT '{"a" 1}'::jsonb;
SELECT '1 2'::jsonb;
SELECT ''::jsonb;
SELECT '{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa": x}'::jsonb;
SELECT t::jsonb FROM (VALUES ('x')) v(t);
