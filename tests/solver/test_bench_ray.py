"""``2048 bench --ray ADDRESS`` where no Ray cluster answers: one clear line, in time.

Ray itself retries such an address for minutes (over 400 s were seen) and prints a warning every
few seconds; the bench must give up within RAY_CONNECT_TIMEOUT_S with a single message.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time

import pytest

from py2048.solver.bench import RAY_CONNECT_TIMEOUT_S


def run(*args: str, timeout: float) -> tuple[subprocess.CompletedProcess[str], float]:
    started = time.monotonic()
    done = subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=timeout)
    return done, time.monotonic() - started


@pytest.mark.slow
def test_an_address_that_refuses_connections_fails_at_once_with_one_line() -> None:
    pytest.importorskip("ray")
    with socket.socket() as closed:  # a port nothing listens on
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    argv = ["-m", "py2048", "bench", "--games", "2", "--depth", "0", "--ray", f"127.0.0.1:{port}"]
    done, seconds = run(*argv, timeout=RAY_CONNECT_TIMEOUT_S + 30)
    assert done.returncode == 2
    assert seconds < RAY_CONNECT_TIMEOUT_S
    assert done.stdout == ""  # the run's header waits until the cluster answers
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert lines == [
        f"2048: error: cannot reach the Ray cluster at 127.0.0.1:{port}: connection refused "
        "(is it running? `ray start --head` prints its address)"
    ]


CONNECT = """
import sys
from py2048.solver.bench import connect_to_ray
try:
    connect_to_ray(sys.argv[1], timeout_s=float(sys.argv[2]))
except ValueError as exc:
    print(exc)
    sys.exit(2)
"""


@pytest.mark.slow
def test_an_address_where_no_ray_cluster_answers_fails_when_the_wait_is_over() -> None:
    pytest.importorskip("ray")
    with socket.socket() as silent:  # accepts connections and never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        address = f"127.0.0.1:{silent.getsockname()[1]}"
        done, seconds = run("-c", CONNECT, address, "3", timeout=60)
    assert done.returncode == 2
    assert done.stdout.strip() == f"no Ray cluster answered at {address} within 3 s"
    assert seconds < 3 + 15  # Ray's import and start, and the process's exit
    assert "Traceback" not in done.stderr
