"""``2048 serve``: run the browser game on a local port and open it in the default browser."""

from __future__ import annotations

import errno
import ipaddress
import os
import socket
import sys
import threading
import webbrowser
from collections.abc import Iterable, Sequence

import uvicorn

from py2048.web.app import create_app
from py2048.web.connections import MAX_HEAD_BYTES, HeadTimeoutProtocol
from py2048.web.hosts import HostPolicy

SHUTDOWN_GRACE_S = 3
_ANY_ADDRESS = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}
_ROUTE_PROBES = ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1"))
"""Documentation addresses: connecting a UDP socket toward one sends nothing, and tells which
of this machine's addresses its default route would use."""


def serve(
    host: str = "127.0.0.1",
    port: int = 2048,
    open_browser: bool = True,
    allow_hosts: Sequence[str] = (),
) -> None:
    """Serve the game until Ctrl-C. Raises ValueError when the address cannot be used.

    On a loopback address the server answers only requests addressed to this machine's names
    (and ``allow_hosts``); on any other it warns that the network can reach it, and where.
    """
    listener = listen(host, port)
    address, bound_port = listener.getsockname()[:2]
    url = browser_url(host, bound_port)
    local = is_loopback(address)
    hosts = HostPolicy.loopback(bound_port, allow_hosts, address) if local else None
    server = uvicorn.Server(server_config(create_app(hosts=hosts)))
    print(f"py2048: the game is at {url}  (Ctrl-C to stop)", flush=True)
    if not local:
        print(network_warning(host, bound_port, reachable_addresses(address)), file=sys.stderr)
    if open_browser:
        threading.Thread(target=open_in_browser, args=(url,), daemon=True).start()
    try:
        server.run(sockets=[listener])
    except KeyboardInterrupt:
        pass
    finally:
        listener.close()
    print("py2048: stopped", flush=True)


def server_config(app: object) -> uvicorn.Config:
    """How ``2048 serve`` runs ``app``: quiet, a deadline and a size limit on request heads, a
    short shutdown."""
    return uvicorn.Config(
        app,  # type: ignore[arg-type]
        http=HeadTimeoutProtocol,
        h11_max_incomplete_event_size=MAX_HEAD_BYTES,
        log_level="warning",
        access_log=False,
        timeout_graceful_shutdown=SHUTDOWN_GRACE_S,
    )


def is_loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address.split("%")[0]).is_loopback
    except ValueError:
        return False


def reachable_addresses(address: str) -> list[str]:
    """The addresses other machines may reach a server bound to ``address`` at: the address
    itself, or for a wildcard this machine's addresses (loopback and link-local left out)."""
    if address not in _ANY_ADDRESS:
        return [address]
    families = {socket.AF_INET} if address == "0.0.0.0" else {socket.AF_INET, socket.AF_INET6}
    found: list[str] = []
    candidates: list[str] = []
    for family, probe in _ROUTE_PROBES:
        if family in families:
            try:
                with socket.socket(family, socket.SOCK_DGRAM) as udp:
                    udp.connect((probe, 9))
                    candidates.append(udp.getsockname()[0])
            except OSError:
                pass
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, type=socket.SOCK_STREAM)
    except OSError:
        infos = []
    candidates += [str(info[4][0]) for info in infos if info[0] in families]
    for candidate in candidates:
        try:
            ip = ipaddress.ip_address(candidate.split("%")[0])
        except ValueError:
            continue
        if not (ip.is_loopback or ip.is_link_local or ip.is_unspecified) and candidate not in found:
            found.append(candidate)
    return found


def network_warning(host: str, port: int, addresses: Iterable[str]) -> str:
    """What ``2048 serve`` says when it listens beyond this machine."""
    where = "every network interface" if host in _ANY_ADDRESS else host
    urls = [browser_url(address, port) for address in addresses]
    reach = (
        f"It answers at {', '.join(urls)}"
        if urls
        else "It answers at this machine's network addresses"
    )
    return (
        f"py2048: warning: listening on {where}, not only on this machine: anyone who can reach "
        f"this computer over the network can play, ask for hints and use its processors. "
        f"{reach}. To keep the game to this machine, leave out --host (or use --host 127.0.0.1)."
    )


def listen(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port``; ValueError says plainly why not."""
    if not 0 <= port <= 65535:
        raise ValueError(f"port must be between 0 and 65535, got {port}")
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except socket.gaierror as exc:
        raise ValueError(f"cannot listen on {host!r}: {exc.strerror}") from None
    sock = socket.socket(family, kind, proto)
    try:
        if os.name != "nt":
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise ValueError(
                f"port {port} on {host} is already in use (is the game already running?); "
                "choose another with --port"
            ) from None
        raise ValueError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.set_inheritable(True)
    return sock


def browser_url(host: str, port: int) -> str:
    """The address to open: a wildcard host becomes loopback; IPv6 gets its brackets."""
    host = _ANY_ADDRESS.get(host, host)
    try:
        if ipaddress.ip_address(host).version == 6:
            host = f"[{host}]"
    except ValueError:
        pass
    return f"http://{host}:{port}/"


def open_in_browser(url: str) -> None:
    """Open ``url`` in a graphical browser, or say to open it by hand.

    It runs on its own thread: some browser commands only return when the browser closes. A
    terminal browser (lynx, w3m: what ``webbrowser`` falls back to without a display) is not
    started unless $BROWSER names it: it would take over the terminal running the server.
    """
    try:
        browser = webbrowser.get()
        terminal_only = type(browser) is webbrowser.GenericBrowser and "BROWSER" not in os.environ
        opened = not terminal_only and browser.open(url)
    except (OSError, webbrowser.Error):
        opened = False
    if not opened:
        print("py2048: no browser could be opened; open the address above to play", flush=True)
