-- to_char of numbers: PR (angle brackets for negatives) and a zero integer
-- part before a fraction (blank, or "0." in fill mode).
SELECT v, '[' || to_char(v, '999PR') || ']' AS pr,
       '[' || to_char(v, 'FM999PR') || ']' AS fm_pr,
       '[' || to_char(v, '0000PR') || ']' AS zero_pr,
       '[' || to_char(v, '9.99PR') || ']' AS frac_pr,
       '[' || to_char(v, 'FM9.99PR') || ']' AS fm_frac_pr,
       '[' || to_char(v, '9,999PR') || ']' AS group_pr
  FROM (VALUES (-5::numeric), (5), (0), (-0.5), (0.001), (-1234), (12.345)) t(v);
SELECT v, '[' || to_char(v, '9.99') || ']' AS a, '[' || to_char(v, '99.99') || ']' AS b,
       '[' || to_char(v, 'FM9.99') || ']' AS c, '[' || to_char(v, '9.9') || ']' AS d,
       '[' || to_char(v, '0.99') || ']' AS e, '[' || to_char(v, 'FM0.99') || ']' AS f,
       '[' || to_char(v, '999') || ']' AS g, '[' || to_char(v, 'FM90.99') || ']' AS h
  FROM (VALUES (0::numeric), (0.5), (-0.5), (0.001), (7), (-7.25)) t(v);
SELECT to_char(-5::int, '999PR'), to_char(2.5::float8, '9.9PR'),
       to_char(-2.5::float8, 'FM9.99PR'), to_char(-12::bigint, '99.9PR');
