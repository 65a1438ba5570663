"""``2048 serve``: prints its address, opens the browser, stops cleanly on Ctrl-C, and says
plainly when it cannot listen."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from py2048.web.server import browser_url, serve

URL = re.compile(r"http://127\.0\.0\.1:(\d+)/")
START_TIMEOUT_S = 60


def start_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "py2048", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **(env or {})},
    )


def read_url(process: subprocess.Popen[str]) -> str:
    assert process.stdout is not None
    line = process.stdout.readline()
    found = URL.search(line)
    assert found, f"no address in {line!r}"
    return found.group(0)


@pytest.fixture
def recording_browser(tmp_path: Path) -> Iterator[tuple[dict[str, str], Path]]:
    """A $BROWSER command that writes the address it is asked to open into a file."""
    opened = tmp_path / "opened.txt"
    script = tmp_path / "record-browser"
    script.write_text(f"#!/bin/sh\nprintf '%s' \"$1\" > {opened}\n")
    script.chmod(0o755)
    yield {"BROWSER": f"{script} %s"}, opened


@pytest.mark.slow
def test_serve_prints_the_address_opens_the_browser_and_stops_on_ctrl_c(
    recording_browser: tuple[dict[str, str], Path],
) -> None:
    env, opened = recording_browser
    process = start_cli("serve", "--port", "0", env=env)
    try:
        url = read_url(process)
        assert httpx.get(f"{url}healthz", timeout=START_TIMEOUT_S).json() == {"status": "ok"}
        assert httpx.get(url).status_code == 200
    finally:
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
    assert process.returncode == 0
    assert "Traceback" not in err and "Traceback" not in out
    assert "stopped" in out
    assert opened.read_text() == url


@pytest.mark.slow
def test_no_browser_opens_none(recording_browser: tuple[dict[str, str], Path]) -> None:
    env, opened = recording_browser
    process = start_cli("--port", "0", "--no-browser", env=env)
    try:
        url = read_url(process)
        assert httpx.get(f"{url}healthz", timeout=START_TIMEOUT_S).status_code == 200
    finally:
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=30)
    assert process.returncode == 0
    assert not opened.exists()


@pytest.fixture
def busy_port() -> Iterator[int]:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        yield taken.getsockname()[1]


def test_a_port_in_use_is_a_clear_error(busy_port: int) -> None:
    with pytest.raises(ValueError, match=f"port {busy_port} .* already in use.*--port"):
        serve(port=busy_port, open_browser=False)


def test_the_command_reports_a_port_in_use_without_a_traceback(busy_port: int) -> None:
    process = start_cli("serve", "--port", str(busy_port), "--no-browser")
    out, err = process.communicate(timeout=START_TIMEOUT_S)
    assert process.returncode == 2
    assert out == ""  # no address is printed for a server that is not listening
    assert err.startswith("2048: error: port") and "already in use" in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("host", "port", "message"),
    [
        ("127.0.0.1", 70000, "port must be between 0 and 65535"),
        ("no-such-host.invalid", 0, "cannot listen on 'no-such-host.invalid'"),
        ("192.0.2.1", 0, "cannot listen on 192.0.2.1"),  # an address this machine does not have
    ],
)
def test_an_address_that_cannot_be_used_is_a_clear_error(
    host: str, port: int, message: str
) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        serve(host=host, port=port, open_browser=False)


@pytest.mark.parametrize(
    ("host", "url"),
    [
        ("127.0.0.1", "http://127.0.0.1:2048/"),
        ("0.0.0.0", "http://127.0.0.1:2048/"),
        ("::", "http://[::1]:2048/"),
        ("::1", "http://[::1]:2048/"),
        ("localhost", "http://localhost:2048/"),
    ],
)
def test_the_address_to_open_is_one_a_browser_can_reach(host: str, url: str) -> None:
    assert browser_url(host, 2048) == url
