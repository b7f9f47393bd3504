"""Exit 0 when a PostgreSQL server answers at 127.0.0.1:5432, 1 otherwise (used by `make test`)."""

import socket
import sys

try:
    socket.create_connection(("127.0.0.1", 5432), timeout=2).close()
except OSError:
    sys.exit(1)
