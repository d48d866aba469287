-- jsonb_insert and json(b)_strip_nulls.
SELECT jsonb_insert('{"a": [0,1,2]}', '{a, 1}', '"new"');
SELECT jsonb_insert('{"a": [0,1,2]}', '{a, 1}', '"new"', true);
SELECT jsonb_insert('{"a": [0,1,2]}', '{a, -1}', '"new"');
SELECT jsonb_insert('{"a": [0,1,2]}', '{a, 10}', '"new"');
SELECT jsonb_insert('{"a": [0,1,2]}', '{a, -10}', '"new"');
SELECT jsonb_insert('{"a": [0,1,2]}', '{b}', '"new"');
SELECT jsonb_insert('{"a": {"b": []}}', '{a, b, 0}', '5');
SELECT jsonb_insert('{"a": {"b": 1}}', '{a, c, d}', '5');
SELECT jsonb_insert('[]', '{0}', '1'), jsonb_insert('{}', '{k}', '1');
SELECT jsonb_insert('{"a": [0,1,2]}', ARRAY['a', '0'], '{"x": null}');
SELECT jsonb_insert('{"a": [0,1,2]}', '{a}', '"new"');
SELECT jsonb_insert('5', '{a}', '1');
SELECT jsonb_insert('{"a": [0,1,2]}', '{a, x}', '1');
SELECT json_strip_nulls('{"a":null, "b" : 1, "c": [1, null, {"d": null, "e": "x"}]}');
SELECT jsonb_strip_nulls('{"a":null, "b" : 1, "c": [1, null, {"d": null, "e": "x"}]}');
SELECT json_strip_nulls('null'), jsonb_strip_nulls('[null]'),
       json_strip_nulls('"s"'), json_strip_nulls(NULL);
