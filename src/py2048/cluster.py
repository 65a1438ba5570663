"""Reaching a Ray cluster, for the commands that farm work out to one (``2048 bench --ray``,
``2048 tables build --ray``). It imports nothing of ours and loads Ray only when called.

Ray is the optional extra ``py2048[ray]``; every machine of the cluster needs py2048 installed
(the same version), since the tasks run py2048's own functions there.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import types
from collections.abc import Iterator
from contextlib import contextmanager

RAY_CONNECT_TIMEOUT_S = 30.0
"""How long ``--ray ADDRESS`` waits for the cluster to answer (Ray itself retries for minutes)."""


@contextmanager
def ray_connection(address: str) -> Iterator[types.ModuleType]:
    """Ray, connected to the cluster at ``address`` for the block (ValueError when Ray is not
    installed or the cluster does not answer); a connection made here is closed at the end, one
    already open is left as it is."""
    try:
        import ray
    except ImportError as exc:
        raise ValueError("--ray needs Ray: pip install 'py2048[ray]'") from exc
    connected_here = not ray.is_initialized()
    if connected_here:
        connect_to_ray(address)
    try:
        yield ray
    finally:
        if connected_here:
            ray.shutdown()


def connect_to_ray(address: str, timeout_s: float = RAY_CONNECT_TIMEOUT_S) -> None:
    """``ray.init(address)``, or ValueError within ``timeout_s`` saying the cluster is not there.

    An address that refuses connections is reported at once, before Ray is started. Otherwise
    ``ray.init`` runs on a helper thread: given an address where no Ray cluster answers it
    retries for minutes, so after ``timeout_s`` the command gives up and leaves the thread
    behind.
    """
    import ray

    where = _host_and_port(address)
    if where is not None:
        try:
            socket.create_connection(where, timeout=min(5.0, timeout_s)).close()
        except OSError as exc:
            reason = exc.strerror or str(exc) or type(exc).__name__
            raise ValueError(
                f"cannot reach the Ray cluster at {address}: {reason.lower()} "
                "(is it running? `ray start --head` prints its address)"
            ) from None
    # Ray's own retries would print a warning every few seconds while the command waits.
    os.environ.setdefault("RAY_BACKEND_LOG_LEVEL", "error")
    outcome: list[BaseException | None] = []

    def connect() -> None:
        try:
            ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False)
            outcome.append(None)
        except BaseException as exc:
            outcome.append(exc)

    helper = threading.Thread(target=connect, name="py2048-ray-connect", daemon=True)
    helper.start()
    helper.join(timeout_s)
    if not outcome:
        raise ValueError(f"no Ray cluster answered at {address} within {timeout_s:g} s")
    if outcome[0] is not None:
        raise ValueError(f"cannot reach the Ray cluster at {address}: {outcome[0]}")


def _host_and_port(address: str) -> tuple[str, int] | None:
    """``"10.0.0.5:6379"``, ``"ray://[::1]:10001"`` -> (host, port); None for ``"auto"`` and
    other forms Ray resolves itself."""
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if not colon or not host or not port.isdigit():
        return None
    return host.strip("[]"), int(port)
