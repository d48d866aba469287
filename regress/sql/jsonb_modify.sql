-- jsonb_set and the #- operator (setPath of PostgreSQL's jsonfuncs.c).
SELECT jsonb_set('{"a":1,"b":{"c":2}}', '{b,c}', '3'), jsonb_set('{"a":1}', '{x}', '"new"'), jsonb_set('{"a":1}', '{x}', '"new"', false), jsonb_set('{"a":1}', '{x,y}', '1');
SELECT jsonb_set('[1,2,3]', '{1}', '"b"'), jsonb_set('[1,2,3]', '{-1}', '9'), jsonb_set('[1,2,3]', '{10}', '9'), jsonb_set('[1,2,3]', '{-10}', '0'), jsonb_set('[1,[2,3]]', '{1,0}', '{"k":1}');
SELECT jsonb_set('{"a":1}', '{}', '2'), jsonb_set('{"a":1}', '{a}', NULL), jsonb_set('{"a":"x"}', '{a,b}', '1'), jsonb_set('{"a":1}', ARRAY['a'], '5');
SELECT jsonb_set('[1]', '{x}', '1');
SELECT jsonb_set('1', '{a}', '1');
SELECT '{"a":1,"b":{"c":2,"d":3}}'::jsonb #- '{b,c}', '[1,2,3]'::jsonb #- '{0}', '{"a":1}'::jsonb #- '{z}', '[1,[2,3]]'::jsonb #- '{1,-1}';
SELECT '1'::jsonb #- '{a}';
SELECT '[1]'::jsonb #- '{a}';
CREATE TABLE js (id int, j jsonb); INSERT INTO js VALUES (1, '{"n": 1}');
UPDATE js SET j = jsonb_set(j, '{n}', to_jsonb((j->>'n')::int + 1)) RETURNING j;
UPDATE js SET j = j #- '{n}' RETURNING j;
DROP TABLE js;
