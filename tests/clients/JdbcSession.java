// pgJDBC session: PreparedStatement with setInt/setString/setBigDecimal (run
// past prepareThreshold so it becomes server-prepared with binary results),
// setFetchSize with autocommit off (named portal, PortalSuspended), errors
// with SQLState, then executeBatch and getGeneratedKeys on a table (needs
// tables). Run: java -cp postgresql.jar JdbcSession.java HOST PORT OUT
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.sql.*;
import java.util.*;

public class JdbcSession {
    interface Body { Object run() throws Exception; }
    static PrintWriter out;
    static Connection conn;

    static String json(Object v) {
        if (v == null) return "null";
        if (v instanceof Boolean || v instanceof Integer || v instanceof Long) return v.toString();
        if (v instanceof List) {
            StringBuilder b = new StringBuilder("[");
            for (Object o : (List<?>) v) { if (b.length() > 1) b.append(','); b.append(json(o)); }
            return b.append(']').toString();
        }
        if (v instanceof Map) {
            StringBuilder b = new StringBuilder("{");
            for (Map.Entry<?, ?> e : new TreeMap<Object, Object>((Map<?, ?>) v).entrySet()) {
                if (b.length() > 1) b.append(',');
                b.append(json(e.getKey().toString())).append(':').append(json(e.getValue()));
            }
            return b.append('}').toString();
        }
        if (!(v instanceof String)) return json(v.getClass().getSimpleName() + ":" + v);
        StringBuilder b = new StringBuilder("\"");
        for (char c : ((String) v).toCharArray()) {
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
            else b.append(c);
        }
        return b.append('"').toString();
    }

    static void step(String name, Body body, String... needs) {
        List<Object> n = new ArrayList<>(Arrays.asList(needs));
        String rec;
        try {
            rec = "{\"step\":" + json(name) + ",\"needs\":" + json(n) + ",\"ok\":" + json(body.run()) + "}";
        } catch (SQLException e) {
            Map<String, Object> err = new HashMap<>();
            err.put("sqlstate", e.getSQLState());
            err.put("message", String.valueOf(e.getMessage()).split("\n")[0]);
            rec = "{\"step\":" + json(name) + ",\"needs\":" + json(n) + ",\"error\":" + json(err) + "}";
            // A fresh connection, so that one failure does not cascade.
            try { conn.close(); } catch (SQLException ignored) { }
            try { conn = connect(); } catch (SQLException c) { throw new RuntimeException(c); }
        } catch (Exception e) {
            Map<String, Object> err = new HashMap<>();
            err.put("sqlstate", e.getClass().getSimpleName());
            err.put("message", String.valueOf(e.getMessage()));
            rec = "{\"step\":" + json(name) + ",\"needs\":" + json(n) + ",\"error\":" + json(err) + "}";
        }
        out.println(rec);
        out.flush();
    }

    static List<Object> rows(ResultSet rs) throws SQLException {
        List<Object> all = new ArrayList<>();
        ResultSetMetaData md = rs.getMetaData();
        List<Object> cols = new ArrayList<>();
        for (int i = 1; i <= md.getColumnCount(); i++) cols.add(md.getColumnLabel(i) + ":" + md.getColumnTypeName(i));
        all.add(cols);
        while (rs.next()) {
            List<Object> r = new ArrayList<>();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                Object o = rs.getObject(i);
                r.add(o == null ? null : o.getClass().getSimpleName() + ":" + o);
            }
            all.add(r);
        }
        rs.close();
        return all;
    }

    static String url;

    static Connection connect() throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", "postgres");
        return DriverManager.getConnection(url, p);
    }

    public static void main(String[] a) throws Exception {
        out = new PrintWriter(a[2], "UTF-8");
        url = "jdbc:postgresql://" + a[0] + ":" + a[1] + "/postgres";
        conn = connect();

        step("metadata", () -> {
            DatabaseMetaData md = conn.getMetaData();
            Map<String, Object> m = new HashMap<>();
            m.put("product", md.getDatabaseProductName());
            m.put("major", md.getDatabaseMajorVersion());
            return m;
        });
        step("statement select", () -> {
            try (Statement s = conn.createStatement()) {
                return rows(s.executeQuery("SELECT 1 AS one, 'two' AS two, 3.50::numeric AS three, true AS t, NULL::text AS n"));
            }
        });
        step("PreparedStatement x7 (threshold, binary)", () -> {
            List<Object> r = new ArrayList<>();
            try (PreparedStatement ps = conn.prepareStatement("SELECT ? + 1 AS n, ? AS s, ? AS d")) {
                for (int i = 0; i < 7; i++) {
                    ps.setInt(1, i * 100);
                    ps.setString(2, "row " + i + " 'q'");
                    ps.setBigDecimal(3, new BigDecimal("12345.678").multiply(BigDecimal.valueOf(i - 3)));
                    r.add(rows(ps.executeQuery()));
                }
            }
            return r;
        });
        step("PreparedStatement null + long", () -> {
            try (PreparedStatement ps = conn.prepareStatement("SELECT ?::int8 AS big, ?::text AS nothing")) {
                ps.setLong(1, 9007199254740993L);
                ps.setNull(2, Types.VARCHAR);
                return rows(ps.executeQuery());
            }
        });
        step("setFetchSize with autocommit off", () -> {
            conn.setAutoCommit(false);
            List<Object> r;
            try (PreparedStatement ps = conn.prepareStatement(
                    "VALUES (1, 1), (2, 4), (3, 9), (4, 16), (5, 25), (6, 36), (7, 49), (8, 64)")) {
                ps.setFetchSize(3);
                r = rows(ps.executeQuery());
            }
            conn.commit();
            conn.setAutoCommit(true);
            return r;
        });
        step("transaction rollback", () -> {
            conn.setAutoCommit(false);
            List<Object> r = new ArrayList<>();
            try (Statement s = conn.createStatement()) {
                s.execute("SET application_name = 'jdbc-txn'");
                conn.rollback();
                r.add(rows(s.executeQuery("SHOW application_name")));
                conn.commit();
            }
            conn.setAutoCommit(true);
            return r;
        });
        step("savepoint", () -> {
            conn.setAutoCommit(false);
            List<Object> r = new ArrayList<>();
            try (Statement s = conn.createStatement()) {
                Savepoint sp = conn.setSavepoint("sp");
                try { s.executeQuery("SELECT 1/0"); } catch (SQLException e) { r.add(e.getSQLState()); }
                conn.rollback(sp);
                r.add(rows(s.executeQuery("SELECT 'after savepoint' AS x")));
                conn.commit();
            }
            conn.setAutoCommit(true);
            return r;
        });
        step("error SQLState", () -> {
            try (Statement s = conn.createStatement()) { return rows(s.executeQuery("SELECT nosuchcol")); }
        });
        step("create table", () -> {
            try (Statement s = conn.createStatement()) {
                s.execute("CREATE TABLE jdbc_items (id serial PRIMARY KEY, name varchar(40), price numeric(10,2))");
                return "created";
            }
        }, "tables");
        step("executeBatch", () -> {
            try (PreparedStatement ps = conn.prepareStatement("INSERT INTO jdbc_items (name, price) VALUES (?, ?)")) {
                for (int i = 1; i <= 4; i++) {
                    ps.setString(1, "item" + i);
                    ps.setBigDecimal(2, new BigDecimal(i + ".25"));
                    ps.addBatch();
                }
                List<Object> r = new ArrayList<>();
                for (int c : ps.executeBatch()) r.add(c);
                return r;
            }
        }, "tables");
        step("getGeneratedKeys", () -> {
            try (PreparedStatement ps = conn.prepareStatement("INSERT INTO jdbc_items (name, price) VALUES (?, ?)",
                    Statement.RETURN_GENERATED_KEYS)) {
                ps.setString(1, "kettle");
                ps.setBigDecimal(2, new BigDecimal("19.99"));
                ps.executeUpdate();
                return rows(ps.getGeneratedKeys());
            }
        }, "tables", "catalog");
        step("select table with fetch size", () -> {
            conn.setAutoCommit(false);
            List<Object> r;
            try (Statement s = conn.createStatement()) {
                s.setFetchSize(2);
                r = rows(s.executeQuery("SELECT id, name, price FROM jdbc_items ORDER BY id"));
            }
            conn.commit();
            conn.setAutoCommit(true);
            return r;
        }, "tables", "catalog");
        step("drop table", () -> {
            try (Statement s = conn.createStatement()) { s.execute("DROP TABLE jdbc_items"); return "dropped"; }
        }, "tables");
        conn.close();
        out.close();
    }
}
