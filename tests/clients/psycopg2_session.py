"""psycopg2 session: connect, server_version, client-side interpolated
parameters, transactions and savepoints, errors with pgcode, a named
(server-side) cursor, then a table round trip (needs tables)."""
import datetime
import decimal

import psycopg2

from tclib import Transcript, args

host, port, out = args()
t = Transcript(out)
conn = psycopg2.connect(host=host, port=port, user="postgres", dbname="postgres")
t.on_error = conn.rollback


def q(sql, params=None, cur=None):
    c = cur or conn.cursor()
    c.execute(sql, params)
    desc = [d.name for d in c.description] if c.description else None
    rows = c.fetchall() if c.description else None
    return {"cols": desc, "rows": rows, "status": c.statusmessage}


def _try(fn):
    try:
        return fn()
    except psycopg2.Error as e:
        return {"pgcode": e.pgcode}


t.step("server_version major", lambda: conn.server_version // 10000)
t.step("encoding", lambda: conn.encoding)
t.step("parameter_status", lambda: {k: conn.get_parameter_status(k) for k in (
    "client_encoding", "server_encoding", "DateStyle", "TimeZone",
    "standard_conforming_strings", "integer_datetimes", "IntervalStyle")})
t.step("select constants", lambda: q("SELECT 1 AS one, 'two' AS two, 3.5::numeric AS three, NULL AS four"))
t.step("interpolated params", lambda: q(
    "SELECT %s AS i, %s AS s, %s AS n, %s AS f, %s AS b, %s AS d, %s AS z",
    (42, "it's \"quoted\"", decimal.Decimal("12.340"), 2.5, True, datetime.date(2024, 2, 29), None)))
t.step("named params", lambda: q("SELECT %(a)s + %(b)s AS sum", {"a": 40, "b": 2}))
t.step("mogrify", lambda: conn.cursor().mogrify("SELECT %s, %s", ("x'y", None)).decode())
t.step("values", lambda: q("VALUES (1, 'a'), (2, 'b'), (3, NULL)"))
t.step("implicit begin status", lambda: (q("SELECT 1"), conn.get_transaction_status())[1])
t.step("commit", lambda: (conn.commit(), conn.get_transaction_status())[1])
t.step("set/show in txn then rollback", lambda: (
    q("SET application_name = 'kova-test'"),
    q("SHOW application_name"),
    conn.rollback(),
    q("SHOW application_name"))[1:4:2])
t.step("savepoint", lambda: (
    q("SAVEPOINT sp1"), q("SET search_path = foo"), q("ROLLBACK TO SAVEPOINT sp1"),
    q("SHOW search_path"), q("RELEASE SAVEPOINT sp1"), conn.commit())[3])
t.step("division by zero", lambda: q("SELECT 1/0"))
t.step("syntax error", lambda: q("SELEC 1"))
t.step("undefined column", lambda: q("SELECT nosuchcolumn"))
t.step("error aborts transaction", lambda: (q("SELECT 1") and None, _try(lambda: q("SELECT 1/0")), _try(lambda: q("SELECT 2")), conn.rollback())[1:3])


def named_cursor():
    cur = conn.cursor(name="kova_cur")
    cur.itersize = 2
    cur.execute("VALUES (1, 10), (2, 20), (3, 30), (4, 40), (5, 50)")
    first = cur.fetchmany(2)
    rest = cur.fetchall()
    cur.close()
    conn.commit()
    return {"first": first, "rest": rest}


t.step("named cursor", named_cursor)


def scrollable_named_cursor():
    """cursor.scroll() sends MOVE ABSOLUTE / RELATIVE (backward too)."""
    cur = conn.cursor(name="kova_scroll", scrollable=True)
    cur.execute("SELECT g, g * 10 FROM generate_series(1, 6) AS g")
    got = {"first": cur.fetchmany(3)}
    cur.scroll(-2)
    got["after relative -2"] = cur.fetchone()
    cur.scroll(0, mode="absolute")
    got["after absolute 0"] = cur.fetchmany(2)
    cur.scroll(5, mode="absolute")
    got["after absolute 5"] = cur.fetchall()
    cur.close()
    conn.commit()
    return got


t.step("scrollable named cursor", scrollable_named_cursor)
t.step("autocommit", lambda: (setattr(conn, "autocommit", True), q("SELECT 'ac'"), conn.get_transaction_status(), setattr(conn, "autocommit", False))[1:3])


def listen_notify():
    """Two sessions: one LISTENs and waits without sending anything, the
    other NOTIFYs in autocommit and inside a transaction block."""
    import select
    import time
    listener = psycopg2.connect(host=host, port=port, user="postgres", dbname="postgres")
    talker = psycopg2.connect(host=host, port=port, user="postgres", dbname="postgres")
    listener.autocommit = True
    talker.autocommit = True
    listener.cursor().execute("LISTEN jobs")
    listener.cursor().execute("LISTEN other")
    tc = talker.cursor()
    got = []

    def wait(n, seconds):
        deadline = time.time() + seconds
        while len(got) < n and time.time() < deadline:
            if select.select([listener], [], [], 0.2)[0]:
                listener.poll()
                while listener.notifies:
                    m = listener.notifies.pop(0)
                    got.append([m.channel, m.payload, m.pid == talker.get_backend_pid()])

    tc.execute("NOTIFY jobs, 'first'")
    tc.execute("SELECT pg_notify('jobs', 'second')")
    tc.execute("NOTIFY nobody, 'unheard'")
    wait(2, 5)
    before_block = len(got)
    tc.execute("BEGIN")
    tc.execute("NOTIFY jobs, 'held'")
    tc.execute("NOTIFY other")
    wait(3, 0.5)  # nothing arrives before COMMIT
    held = len(got) - before_block
    tc.execute("COMMIT")
    wait(4, 5)
    listener.cursor().execute("UNLISTEN *")
    tc.execute("NOTIFY jobs, 'after unlisten'")
    wait(5, 0.5)
    listener.close()
    talker.close()
    return {"got": got, "held_before_commit": held}


t.step("listen/notify", listen_notify)


def terminate_backend():
    """pg_stat_activity lists another session under the pid libpq was
    given; pg_terminate_backend ends it."""
    import time
    admin = psycopg2.connect(host=host, port=port, user="postgres", dbname="postgres")
    victim = psycopg2.connect(host=host, port=port, user="postgres", dbname="postgres",
                              application_name="victim")
    admin.autocommit = True
    victim.autocommit = True
    pid = victim.get_backend_pid()
    vc = victim.cursor()
    vc.execute("SELECT pg_backend_pid()")
    same_pid = vc.fetchone()[0] == pid
    ac = admin.cursor()
    ac.execute("SELECT application_name, state, query FROM pg_stat_activity WHERE pid = %s", (pid,))
    listed = ac.fetchall()
    ac.execute("SELECT pg_terminate_backend(%s)", (pid,))
    terminated = ac.fetchone()[0]
    time.sleep(0.2)
    try:
        vc.execute("SELECT 1")
        outcome = "still open"
    except psycopg2.OperationalError:
        outcome = "closed"
    gone = False
    for _ in range(50):
        ac.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", (pid,))
        if ac.fetchone()[0] == 0:
            gone = True
            break
        time.sleep(0.05)
    admin.close()
    return {"same_pid": same_pid, "listed": listed, "terminated": terminated,
            "victim": outcome, "gone": gone}


t.step("pg_terminate_backend", terminate_backend)


def drop_database_in_use():
    """DROP DATABASE refuses a database another session uses; WITH (FORCE)
    ends that session and drops it."""
    import time
    admin = psycopg2.connect(host=host, port=port, user="postgres", dbname="postgres")
    admin.autocommit = True
    ac = admin.cursor()
    ac.execute("DROP DATABASE IF EXISTS pg2_inuse")
    ac.execute("CREATE DATABASE pg2_inuse")
    user = psycopg2.connect(host=host, port=port, user="postgres", dbname="pg2_inuse")
    user.autocommit = True
    user.cursor().execute("SELECT 1")
    try:
        ac.execute("DROP DATABASE pg2_inuse")
        refused = None
    except psycopg2.Error as e:
        refused = [e.pgcode, e.diag.message_primary, e.diag.message_detail]
    ac.execute("DROP DATABASE pg2_inuse WITH (FORCE)")
    time.sleep(0.1)
    try:
        user.cursor().execute("SELECT 1")
        outcome = "still open"
    except psycopg2.OperationalError:
        outcome = "closed"
    ac.execute("SELECT count(*) FROM pg_database WHERE datname = 'pg2_inuse'")
    left = ac.fetchone()[0]
    admin.close()
    return {"refused": refused, "user": outcome, "left": left}


t.step("drop database in use", drop_database_in_use)
def advisory_pg_locks():
    """pg_locks shows the advisory locks sessions hold and wait for, with
    PostgreSQL's lock tag (classid, objid, objsubid)."""
    import threading
    import time
    def connect():
        c = psycopg2.connect(host=host, port=port, user="postgres", dbname="postgres")
        c.autocommit = True
        return c
    a, b, c = connect(), connect(), connect()
    ca, cb, cc = a.cursor(), b.cursor(), c.cursor()
    ca.execute("SELECT pg_backend_pid()")
    pa = ca.fetchone()[0]
    cb.execute("SELECT pg_backend_pid()")
    pb = cb.fetchone()[0]
    ca.execute("SELECT pg_advisory_lock(42), pg_advisory_lock_shared(1, 2), "
               "pg_advisory_lock(-5000000000)")
    waiter = threading.Thread(target=lambda: cb.execute("SELECT pg_advisory_lock(42)"))
    waiter.start()
    time.sleep(0.5)
    cc.execute("""SELECT locktype,
                         database = (SELECT oid FROM pg_database
                                     WHERE datname = current_database()),
                         relation, classid, objid, objsubid,
                         CASE pid WHEN %s THEN 'a' WHEN %s THEN 'b' END,
                         mode, granted, fastpath
                    FROM pg_locks WHERE locktype = 'advisory'
                    ORDER BY classid, objid, granted DESC""", (pa, pb))
    held = cc.fetchall()
    ca.execute("SELECT pg_advisory_unlock_all()")
    waiter.join()
    cc.execute("SELECT mode, granted FROM pg_locks "
               "WHERE locktype = 'advisory' AND pid = %s", (pb,))
    after = cc.fetchall()
    for x in (a, b, c):
        x.close()
    return {"held": held, "after": after}


t.step("pg_locks advisory", advisory_pg_locks)
t.step("create table", lambda: (q("CREATE TABLE pg2_items (id serial PRIMARY KEY, name text, price numeric(8,2))"), conn.commit())[0], needs=["tables"])
t.step("insert returning", lambda: (q("INSERT INTO pg2_items (name, price) VALUES (%s, %s), (%s, %s) RETURNING id", ("kettle", decimal.Decimal("19.99"), "mug", decimal.Decimal("4.50"))), conn.commit())[0], needs=["tables"])
t.step("select table", lambda: q("SELECT id, name, price FROM pg2_items ORDER BY id"), needs=["tables"])
t.step("drop table", lambda: (q("DROP TABLE pg2_items"), conn.commit())[0], needs=["tables"])


def deferred_foreign_key():
    # Django declares every foreign key DEFERRABLE INITIALLY DEFERRED and
    # relies on the check waiting for COMMIT.
    q("CREATE TABLE pg2_parent (id int PRIMARY KEY)")
    q("CREATE TABLE pg2_child (id int PRIMARY KEY, parent_id int REFERENCES pg2_parent DEFERRABLE INITIALLY DEFERRED)")
    conn.commit()
    q("INSERT INTO pg2_child VALUES (1, 7)")
    q("INSERT INTO pg2_parent VALUES (7)")
    conn.commit()
    q("INSERT INTO pg2_child VALUES (2, 8)")
    try:
        conn.commit()
        failed = None
    except psycopg2.Error as e:
        failed = {"pgcode": e.pgcode, "detail": e.diag.message_detail}
    rows = q("SELECT id, parent_id FROM pg2_child ORDER BY id")
    q("DROP TABLE pg2_child, pg2_parent")
    conn.commit()
    return {"commit": failed, "rows": rows}


t.step("deferred foreign key", deferred_foreign_key, needs=["tables"])
conn.close()
