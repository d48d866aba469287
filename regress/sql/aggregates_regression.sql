-- bit_and / bit_or / bit_xor, corr, covar_* and regr_* aggregates, and the
-- jsonb ?| and ?& operators.
CREATE TABLE pts (x int, y float8, b int2, g text);
INSERT INTO pts VALUES (1, 2.5, 3, 'a'), (2, 4.1, 5, 'a'), (3, 6.2, 6, 'b'), (4, 7.9, 12, 'b'), (5, NULL, NULL, 'b'), (NULL, 1, 1, 'c');
SELECT corr(y, x), covar_pop(y, x), covar_samp(y, x), regr_slope(y, x), regr_intercept(y, x), regr_r2(y, x), regr_count(y, x) FROM pts;
SELECT regr_avgx(y, x), regr_avgy(y, x), regr_sxx(y, x), regr_syy(y, x), regr_sxy(y, x) FROM pts;
SELECT g, bit_and(b), bit_or(b), bit_xor(b), bit_and(x), corr(y, x), regr_count(y, x) FROM pts GROUP BY g ORDER BY g;
SELECT bit_or(x::bigint) FROM pts WHERE false;
SELECT corr(1, 2), covar_samp(x, x) FROM pts WHERE x = 1;
SELECT '{"a":1, "b":2}'::jsonb ?| ARRAY['a','z'], '{"a":1, "b":2}'::jsonb ?& ARRAY['a','z'], '{"a":1, "b":2}'::jsonb ?& ARRAY['a','b'], '["x","y"]'::jsonb ?| '{y}', '{"a":1}'::jsonb ?& '{}';
SELECT pg_typeof(bit_and(b)), pg_typeof(regr_count(y, x)), pg_typeof(corr(y, x)) FROM pts;
DROP TABLE pts;
-- string_agg(DISTINCT ...): the distinct values, sorted
SELECT g, string_agg(DISTINCT s, ','), string_agg(DISTINCT s, '') FROM (VALUES (1, 'b'), (1, 'a'), (1, 'b'), (2, NULL), (2, 'z'), (3, NULL)) v(g, s) GROUP BY g ORDER BY g;
