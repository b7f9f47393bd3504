"""``/terveys/``: the health check answers "ok" without touching the database, and is never cached."""

from django.db import connection
from django.test.utils import CaptureQueriesContext


def test_health_is_ok_without_a_query(client, db):
    with CaptureQueriesContext(connection) as ctx:
        response = client.get("/terveys/")
    assert response.status_code == 200 and response.content == b"ok\n"
    assert len(ctx.captured_queries) == 0
    assert "no-cache" in response["Cache-Control"]
    assert client.post("/terveys/").status_code == 405
