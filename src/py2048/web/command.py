"""``2048 serve`` (and ``2048`` with no command): its flags, and running the server.

The server (FastAPI, uvicorn) is imported only when the command runs, so the command line can
build its parser without loading it.
"""

from __future__ import annotations

import argparse

from py2048.argtypes import port_number

HELP = "play in the browser (the default)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on; any but a loopback address lets the network reach the game "
        "(default: %(default)s)",
    )
    parser.add_argument(
        "--port",
        type=port_number,
        default=2048,
        help="port, 0 for a free one (default: %(default)s)",
    )
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser window")
    parser.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="also answer requests addressed to NAME (a host name that points to this machine, "
        "or a proxy's); by default only localhost, 127.0.0.1 and [::1] are answered",
    )


def run(args: argparse.Namespace) -> int:
    from py2048.web.server import serve

    serve(
        host=args.host,
        port=args.port,
        open_browser=not args.no_browser,
        allow_hosts=args.allow_host,
    )
    return 0
