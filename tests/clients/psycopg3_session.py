"""psycopg 3 session: binary parameters and results, server-side prepared
statements (prepare=True and the prepare threshold), cursor.execute with %s,
transaction contexts with savepoints, then executemany into a table (needs
tables)."""
import decimal

import psycopg

from tclib import Transcript, args

host, port, out = args()
t = Transcript(out)
conn = psycopg.connect(host=host, port=port, user="postgres", dbname="postgres")


def reconnect():
    """After a failed step: a fresh connection, so one failure does not
    cascade into the following steps."""
    global conn
    # The old connection is abandoned, not closed: after a timeout its
    # lock is still held by the hung step's thread.
    conn = psycopg.connect(host=host, port=port, user="postgres", dbname="postgres")


t.on_error = reconnect


def q(sql, params=None, **kw):
    cur = conn.cursor(binary=kw.pop("binary_cursor", False))
    cur.execute(sql, params, **kw)
    desc = [d.name for d in cur.description] if cur.description else None
    rows = cur.fetchall() if cur.description else None
    return {"cols": desc, "rows": rows, "status": cur.statusmessage}


t.step("server_version major", lambda: conn.info.server_version // 10000)
t.step("parameter_status", lambda: {k: conn.info.parameter_status(k) for k in (
    "client_encoding", "DateStyle", "TimeZone", "standard_conforming_strings")})
t.step("simple select", lambda: q("SELECT 1 AS a, 'b' AS b"))
t.step("params %s", lambda: q("SELECT %s::int + 1 AS n, %s AS s, %s::numeric AS d, %s::float8 AS f",
                              (41, "text ü", decimal.Decimal("1.25"), 0.5)))
t.step("params binary=True", lambda: q("SELECT %s::int * 2 AS n, %s::text AS s, %s::numeric AS d, %s::bool AS b",
                                      (21, "bin", decimal.Decimal("-3.1415"), False), binary=True))
t.step("binary cursor", lambda: q("SELECT 123456789012::int8 AS big, 7::int2 AS small, 'x'::text AS t, 2.5::float8 AS f",
                                  binary_cursor=True))
t.step("prepare=True", lambda: [q("SELECT %s::int + %s::int AS s", (i, 100), prepare=True)["rows"] for i in range(3)])
t.step("prepare threshold (6 runs)", lambda: [conn.execute("SELECT %s::text || '!' AS e", (f"r{i}",)).fetchone() for i in range(6)])
t.step("named %(x)s params", lambda: q("SELECT %(x)s::int AS x, %(x)s::int + 1 AS y", {"x": 9}))
t.step("null param", lambda: q("SELECT %s::text IS NULL AS isnull", (None,)))


def txn_contexts():
    res = []
    with conn.transaction():
        res.append(str(conn.info.transaction_status))
        conn.execute("SET LOCAL search_path = outer_path")
        try:
            with conn.transaction():
                conn.execute("SET LOCAL search_path = inner_path")
                conn.execute("SELECT 1/0")
        except psycopg.errors.DivisionByZero as e:
            res.append(e.sqlstate)
        res.append(conn.execute("SHOW search_path").fetchone()[0])
    res.append(str(conn.info.transaction_status))
    res.append(conn.execute("SHOW search_path").fetchone()[0])
    conn.commit()
    return res


t.step("transaction contexts", txn_contexts)


def txn_rollback():
    class Boom(Exception):
        pass
    try:
        with conn.transaction():
            conn.execute("SET application_name = 'inside'")
            raise Boom()
    except Boom:
        pass
    r = conn.execute("SHOW application_name").fetchone()[0]
    conn.commit()
    return r


t.step("transaction rollback on exception", txn_rollback)


def executemany_error(returning):
    with conn.cursor() as cur:
        cur.executemany("SELECT %s::int / 0", [(1,), (2,)], returning=returning)
    conn.commit()
    return "no error"


t.step("executemany pipeline error", lambda: executemany_error(False), timeout=5)
t.step("executemany returning=True pipeline error", lambda: executemany_error(True), timeout=5)
t.step("error sqlstate", lambda: q("SELECT %s::int / 0", (1,)))


def _autocommit():
    with psycopg.connect(host=host, port=port, user="postgres", dbname="postgres", autocommit=True) as c:
        return [c.execute("SELECT %s::int", (5,), binary=True).fetchone()[0], str(c.info.transaction_status)]


t.step("autocommit connection", _autocommit)
t.step("create table", lambda: (q("CREATE TABLE pg3_items (id serial PRIMARY KEY, name text, qty int)"), conn.commit())[0], needs=["tables"])


def executemany():
    with conn.cursor() as cur:
        cur.executemany("INSERT INTO pg3_items (name, qty) VALUES (%s, %s) RETURNING id",
                        [("a", 1), ("b", 2), ("c", 3)], returning=True)
        ids = []
        while True:
            ids.append(cur.fetchone()[0])
            if not cur.nextset():
                break
    conn.commit()
    return ids


t.step("executemany returning", executemany, needs=["tables"], timeout=5)
t.step("select table binary", lambda: q("SELECT id, name, qty FROM pg3_items ORDER BY id", binary=True), needs=["tables"])
t.step("drop table", lambda: (q("DROP TABLE pg3_items"), conn.commit())[0], needs=["tables"])
conn.close()
