"""Transcript helpers shared by the Python client sessions in tests/clients.

A session calls step(name, fn, needs=...) for every step; the result (a
normalised value, or the error's SQLSTATE and message) goes to the transcript
file as one JSON line.  `needs` names features Kova does not have yet
("tables", "catalog"); the runner uses it to tell expected failures from real
ones.  Nothing timing-, pid- or version-specific may be written.
"""
import datetime
import decimal
import json
import sys
import threading
import traceback
import uuid


def norm(v):
    """Turns driver values into JSON-stable values that keep their type."""
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        return {"float": repr(v)}
    if isinstance(v, decimal.Decimal):
        return {"numeric": str(v)}
    if isinstance(v, datetime.datetime):
        return {"timestamp": v.isoformat()}
    if isinstance(v, datetime.date):
        return {"date": v.isoformat()}
    if isinstance(v, datetime.time):
        return {"time": v.isoformat()}
    if isinstance(v, datetime.timedelta):
        return {"interval": str(v)}
    if isinstance(v, (bytes, bytearray, memoryview)):
        return {"bytea": bytes(v).hex()}
    if isinstance(v, uuid.UUID):
        return {"uuid": str(v)}
    if isinstance(v, (list, tuple)):
        return [norm(x) for x in v]
    if isinstance(v, dict):
        return {str(k): norm(x) for k, x in v.items()}
    return {type(v).__name__: str(v)}


class Transcript:
    def __init__(self, path):
        self.f = open(path, "w")
        self.on_error = None  # called after a step fails (e.g. conn.rollback)

    def step(self, name, fn, needs=(), timeout=10):
        rec = {"step": name, "needs": list(needs)}
        try:
            rec["ok"] = norm(run_with_timeout(fn, timeout))
        except Exception as e:  # driver errors carry a SQLSTATE
            code = (getattr(e, "pgcode", None) or getattr(e, "sqlstate", None)
                    or getattr(getattr(e, "orig", None), "pgcode", None)
                    or getattr(getattr(e, "orig", None), "sqlstate", None))
            msg = str(getattr(e, "orig", None) or e).strip().splitlines()
            rec["error"] = {"sqlstate": code or type(e).__name__,
                            "message": msg[0] if msg else ""}
            if self.on_error:
                try:
                    self.on_error()
                except Exception:
                    traceback.print_exc()
        self.f.write(json.dumps(rec, sort_keys=True) + "\n")
        self.f.flush()
        return rec.get("ok")


class StepTimeout(Exception):
    sqlstate = "timeout"


def run_with_timeout(fn, timeout):
    """Runs fn in a daemon thread: a server that never answers fails the
    step instead of hanging the session (the connection is then abandoned)."""
    box = {}

    def target():
        try:
            box["value"] = fn()
        except BaseException as e:  # noqa: B902 - re-raised below
            box["error"] = e

    th = threading.Thread(target=target, daemon=True)
    th.start()
    th.join(timeout)
    if th.is_alive():
        raise StepTimeout(f"no reply from the server within {timeout}s (client hung)")
    if "error" in box:
        raise box["error"]
    return box.get("value")


def args():
    """host port transcript-path, as the runner passes them."""
    host, port, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    return host, port, out
