"""Shared by every web test: the real app, served by uvicorn on a free local port.

Tests talk to it over real HTTP (httpx, Chromium), exactly as a browser would.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import httpx
import pytest
import uvicorn

from py2048.web import create_app

STARTUP_TIMEOUT_S = 30.0


class LiveServer:
    """The app on uvicorn in a background thread, listening on 127.0.0.1 at a free port."""

    def __init__(self, app: object) -> None:
        self._socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._socket.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self._socket.getsockname()[1]}"
        config = uvicorn.Config(app, log_level="warning", access_log=False)
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [self._socket]}, daemon=True
        )

    def __enter__(self) -> LiveServer:
        self._thread.start()
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the py2048 test server did not start")
            time.sleep(0.01)
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=10)
        self._socket.close()


@pytest.fixture(scope="session")
def server_url() -> Iterator[str]:
    """Base URL (no trailing slash) of the real app served for this test session."""
    with LiveServer(create_app()) as server:
        yield server.url


@pytest.fixture
def http(server_url: str) -> Iterator[httpx.Client]:
    """An HTTP client for the served app (relative URLs: ``http.post("/api/new")``)."""
    with httpx.Client(base_url=server_url, timeout=10.0) as client:
        yield client
