"""SQLAlchemy Core session (psycopg2 dialect): create_engine, connect (the
dialect's own first-connect queries), text() queries with bound parameters,
transactions, then metadata.create_all of a table with a serial key and an
insert that reads the key back (needs the catalog and tables)."""
import sqlalchemy as sa

from tclib import Transcript, args

host, port, out = args()
t = Transcript(out)
URL = f"postgresql+psycopg2://postgres@{host}:{port}/postgres"


def rows(result):
    return {"cols": list(result.keys()), "rows": [list(r) for r in result]}


def first_connect(engine):
    with engine.connect():
        return {"server_version_major": engine.dialect.server_version_info[0],
                "default_schema": engine.dialect.default_schema_name}


# The psycopg2 dialect's default first connect probes pg_type for hstore
# (a catalog join); the rest of the session turns that probe off.
default_engine = sa.create_engine(URL, future=True)
t.step("connect (default dialect: hstore probe in pg_type)", lambda: first_connect(default_engine), needs=["catalog"])
default_engine.dispose()
engine = sa.create_engine(URL, future=True, use_native_hstore=False)
t.step("connect (use_native_hstore=False)", lambda: first_connect(engine))


def text_queries():
    with engine.connect() as c:
        a = rows(c.execute(sa.text("SELECT :a + :b AS total, :s AS s"), {"a": 40, "b": 2, "s": "x'y"}))
        b = rows(c.execute(sa.text("VALUES (:m, 'one'), (:m + 1, 'two')"), {"m": 1}))
        return [a, b]


t.step("text() queries", text_queries)


def begin_commit():
    with engine.begin() as c:
        c.execute(sa.text("SET LOCAL application_name = 'sa'"))
        return c.execute(sa.text("SHOW application_name")).scalar()


t.step("engine.begin", begin_commit)


def rollback():
    with engine.connect() as c:
        tx = c.begin()
        try:
            c.execute(sa.text("SELECT 1/0"))
        except sa.exc.DBAPIError as e:
            tx.rollback()
            return {"sqlstate": e.orig.pgcode}


t.step("error + rollback", rollback)

meta = sa.MetaData()
items = sa.Table("sa_items", meta,
                 sa.Column("id", sa.Integer, primary_key=True),  # SERIAL
                 sa.Column("name", sa.String(50), nullable=False),
                 sa.Column("price", sa.Numeric(8, 2)))
t.step("metadata.create_all", lambda: meta.create_all(engine), needs=["catalog", "tables"])


def insert_key():
    with engine.begin() as c:
        r1 = c.execute(items.insert().values(name="kettle", price=19.99))
        r2 = c.execute(items.insert().values(name="mug", price=4.5))
        return [list(r1.inserted_primary_key), list(r2.inserted_primary_key)]


t.step("insert reads serial key", insert_key, needs=["tables"])


def select_back():
    with engine.connect() as c:
        return rows(c.execute(sa.select(items.c.id, items.c.name, items.c.price).order_by(items.c.id)))


t.step("select rows", select_back, needs=["tables"])


# The ORM: a declarative model, a Session that adds objects and reads back
# the serial keys the server assigned, and a query.
from sqlalchemy import orm  # noqa: E402

Base = orm.declarative_base(metadata=meta)


class Book(Base):
    __tablename__ = "sa_books"
    id = sa.Column(sa.Integer, primary_key=True)  # SERIAL
    title = sa.Column(sa.String(100), nullable=False)


t.step("orm create_all", lambda: Base.metadata.create_all(engine, tables=[Book.__table__]),
       needs=["catalog", "tables"])


def orm_session():
    with orm.Session(engine) as session:
        books = [Book(title="The Hobbit"), Book(title="LOTR")]
        session.add_all(books)
        session.commit()
        keys = [b.id for b in books]
        titles = [b.title for b in session.query(Book).order_by(Book.id)]
        return {"keys": keys, "titles": titles}


t.step("orm session add, commit, query", orm_session, needs=["tables"])
# Reflection (sqlalchemy.inspect) of a table with a composite primary key,
# foreign keys with actions, UNIQUE constraints and indexes.
orders = sa.Table("sa_orders", meta,
                  sa.Column("region", sa.String(4), primary_key=True),
                  sa.Column("num", sa.Integer, primary_key=True),
                  sa.Column("item_id", sa.Integer, sa.ForeignKey("sa_items.id", ondelete="CASCADE")),
                  sa.Column("code", sa.String(10), unique=True),
                  sa.Column("a", sa.Integer), sa.Column("b", sa.Integer),
                  sa.UniqueConstraint("a", "b", name="sa_orders_a_b"),
                  sa.Index("sa_orders_item_idx", "item_id"),
                  sa.Index("sa_orders_b_a_uidx", "b", "a", unique=True))
t.step("create a table to reflect", lambda: orders.create(engine), needs=["tables"])


def reflect(method):
    def run():
        insp = sa.inspect(engine)
        return getattr(insp, method)("sa_orders")
    return run


# get_pk_constraint reads unnest(KEY) and generate_subscripts(KEY, 1) of a
# key array side by side in a select list (run in lockstep).
t.step("inspect get_pk_constraint", reflect("get_pk_constraint"))
t.step("inspect get_indexes", reflect("get_indexes"), needs=["catalog"])
t.step("inspect get_unique_constraints", reflect("get_unique_constraints"), needs=["catalog"])
t.step("inspect get_foreign_keys", reflect("get_foreign_keys"), needs=["catalog"])
# Only this session's tables: the other clients run side by side in the same
# database and create their own (node_items, ...) at any moment.
t.step("inspect get_table_names",
       lambda: sorted(n for n in sa.inspect(engine).get_table_names() if n.startswith("sa_")),
       needs=["catalog"])
t.step("metadata.drop_all", lambda: meta.drop_all(engine), needs=["catalog", "tables"])
engine.dispose()
