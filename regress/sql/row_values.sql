-- Row values: ROW constructors, whole-row references (t, t.*), their text
-- output, to_json / row_to_json / to_jsonb and json_agg / jsonb_agg of rows.
CREATE TABLE wt (a int, b text, c numeric, d bool, e float8, f timestamp, g text[], h jsonb);
insert into wt values (1, 'x y', 1.50, true, 1.5, '2024-01-02 03:04:05', '{a,"b c"}', '{"k": [1, 2]}'), (2, null, null, null, null, null, null, null), (3, '', 0, false, -0.25, null, '{}', 'null'), (4, 'q"uo\te(,)', 2, true, 1e20, null, null, '"s"');
select row(1,'a');
select (1,'a b',null);
select row(1, 'x', true, 2.5::float8, null::int);
select row_to_json(row(1,'a'));
select wt from wt order by a;
select to_json(wt) from wt order by a;
select row_to_json(wt) from wt order by a;
select to_jsonb(wt) from wt order by a;
select to_json(wt.*) from wt order by a;
select json_agg(wt order by a) from wt;
select jsonb_agg(wt) from wt where a < 3;
select t from (select a, b from wt) t order by a;
select to_json(t) from (select a, b as "B" from wt) t order by a;
select a from wt where wt is not null;
select a from wt where wt is null;
select a, (select to_json(w2) from wt w2 where w2.a = w1.a + 1) from wt w1 order by a;
create table wb (a int, z text);
insert into wb values (1, 'one');
select wt.a, to_json(wb), wb from wt left join wb on wb.a = wt.a order by wt.a;
select a, wb is null from wt left join wb using (a) order by 1;
select '(1,2)'::record;
select row(1,2)::text;
select row_to_json(1);
select count(*) from wt group by wt;
drop table wt, wb;
select pg_typeof(row(1,2));
-- json_agg sets arrays (and rows) apart with a line break.
select json_agg(x) from (values (array[1,2]),(null),(array[3])) v(x);
select json_agg(x) from (values (null::int[]),(array[1,2])) v(x);
select json_agg(distinct x) from (values (array[1,2]),(array[1,2]),(array[3])) v(x);
select jsonb_agg(x) from (values (array[1,2]),(array[3])) v(x);
select json_agg(row(a, b)) from (values (1,'x'),(2,'y')) v(a,b);
