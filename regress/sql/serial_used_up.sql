-- A conflicting or failing INSERT still uses up the serial value its default
-- took; currval and lastval show it, as PostgreSQL's nextval in the default.
CREATE TABLE used_up (id serial PRIMARY KEY, code text UNIQUE, n int);
INSERT INTO used_up (code, n) VALUES ('x', 1);
INSERT INTO used_up (code, n) VALUES ('x', 10) ON CONFLICT (code) DO UPDATE SET n = used_up.n + 1;
SELECT currval('used_up_id_seq');
INSERT INTO used_up (code, n) VALUES ('x', 10) ON CONFLICT (code) DO NOTHING;
SELECT currval('used_up_id_seq');
INSERT INTO used_up (code, n) VALUES ('x', 10);
SELECT currval('used_up_id_seq');
INSERT INTO used_up (code, n) VALUES ('y', 10) RETURNING id;
SELECT last_value FROM used_up_id_seq;
SELECT lastval();
DROP TABLE used_up;
