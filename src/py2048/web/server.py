"""``2048 serve``: run the browser game on a local port and open it in the default browser."""

from __future__ import annotations

import errno
import ipaddress
import os
import socket
import threading
import webbrowser

import uvicorn

from py2048.web.app import create_app

SHUTDOWN_GRACE_S = 3
_ANY_ADDRESS = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}


def serve(host: str = "127.0.0.1", port: int = 2048, open_browser: bool = True) -> None:
    """Serve the game until Ctrl-C. Raises ValueError when the address cannot be used."""
    listener = listen(host, port)
    url = browser_url(host, listener.getsockname()[1])
    server = uvicorn.Server(
        uvicorn.Config(
            create_app(),
            log_level="warning",
            access_log=False,
            timeout_graceful_shutdown=SHUTDOWN_GRACE_S,
        )
    )
    print(f"py2048: the game is at {url}  (Ctrl-C to stop)", flush=True)
    if open_browser:
        threading.Thread(target=open_in_browser, args=(url,), daemon=True).start()
    try:
        server.run(sockets=[listener])
    except KeyboardInterrupt:
        pass
    finally:
        listener.close()
    print("py2048: stopped", flush=True)


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
