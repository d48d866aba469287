--
-- Enum labels each have an OID of their own, also past 2048 labels.
--
SELECT 'CREATE TYPE many_labels AS ENUM (' ||
       string_agg(quote_literal('l' || g), ', ' ORDER BY g) || ')'
  FROM generate_series(1, 2100) g \gexec
CREATE TYPE few_labels AS ENUM ('a', 'b');
ALTER TYPE many_labels ADD VALUE 'after';
ALTER TYPE few_labels ADD VALUE 'c';
SELECT t.typname, count(*) AS labels, count(DISTINCT e.oid) AS distinct_oids
  FROM pg_enum e JOIN pg_type t ON t.oid = e.enumtypid
  WHERE t.typname IN ('many_labels', 'few_labels') GROUP BY 1 ORDER BY 1;
SELECT enumlabel FROM pg_enum
  WHERE enumtypid = (SELECT oid FROM pg_type WHERE typname = 'many_labels')
  ORDER BY enumsortorder DESC LIMIT 3;
SELECT 'l2050'::many_labels < 'l2100'::many_labels AS lt,
       'after'::many_labels > 'l1'::many_labels AS gt;
DROP TYPE many_labels, few_labels;
