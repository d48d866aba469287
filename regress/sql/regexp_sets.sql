-- regexp_matches, regexp_split_to_table and string_to_table in a select list.
SELECT regexp_matches('a1b22c333', '\d+', 'g');
SELECT regexp_matches('a1b22c333', '(\w)(\d+)', 'g');
SELECT regexp_matches('abc', 'z');
SELECT regexp_matches('abc', 'B', 'i');
SELECT regexp_split_to_table('a,b;c', '[,;]');
SELECT regexp_split_to_table('hello world', '\s+') AS w, 1 AS k;
SELECT (regexp_matches('k=v', '(\w)=(\w)'))[2];
CREATE TABLE rx (id int, s text);
INSERT INTO rx VALUES (1, 'a-b'), (2, 'c'), (3, NULL);
SELECT id, regexp_split_to_table(s, '-') FROM rx ORDER BY id;
SELECT id, regexp_matches(s, '[a-z]', 'g') FROM rx ORDER BY id;
DROP TABLE rx;
SELECT regexp_matches('x', '(');
SELECT string_to_table('a,b,,c', ',');
SELECT string_to_table('a|*|c', '|', '*');
