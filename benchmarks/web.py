"""Web server: /api/move latency under load with hints running, and under attack; page weight.

Run:  nice -n 10 python benchmarks/web.py [--rate 200] [--seconds 30] [--hint-clients 2]
                                          [--attack-clients 2] [--head-attack-clients 1]
                                          [--json PATH [--note TEXT]]

1. In this process, the CPU time one /api/move costs the server: the whole app (middleware,
   validation, engine, serialization) called directly through ASGI, without sockets. This is
   the part of the latency the server itself adds, whatever else the machine is doing.
2. Starts ``2048 serve`` as its own process and drives it from this process with an open-loop
   generator: /api/move requests are sent at a fixed rate on a schedule, whatever the answers
   do, over a few keep-alive connections, each with a real mid-game save and a random direction.
   Latency is counted from the moment a request was due, so a stalled server cannot hide its
   stall by slowing the generator down. Meanwhile ``--hint-clients`` clients ask for hints
   back to back (preset "strong": up to 500 ms of search each). Prints p50/p90/p99/max, errors,
   and p99 against the 5 ms target.
   Then the same again with ``--attack-clients`` more clients (in a process of their own, so
   that they do not slow the generator down) sending, back to back, the body an outside probe
   found to stall the server: ``{"seed": 1, "x": [[[[[[[[[[[]]]]]]]]]], ...]}``,
   many small nested lists just under the server's body limit (0.3-0.4 s of event loop each
   when it was parsed before being checked). Prints the same figures against a 10 ms target,
   and how the attack requests were answered.
   Then the same again with ``--head-attack-clients`` clients (again in a process of their own)
   each sending one request whose header value is 64 MB long, in 64 KiB pieces as fast as the
   server takes them, and starting over on a new connection when it is closed: what an outside
   probe found to hold every other request up for 3.7-7.2 s, when the parser copied the value
   whole for each piece it joined. Prints the same figures against the 10 ms target, and how
   many bytes each such request got to send before the server answered or closed it.
3. Adds up the bytes of everything under src/py2048/web/static (HTML, CSS, JS, locale JSON,
   fonts) against the 150 KB target, and checks that no page, stylesheet or script loads
   anything from another host (links to other sites, which load nothing, are allowed).

The generator is a minimal HTTP/1.1 client on asyncio streams, so that its own overhead stays
far below the figures it measures. ``--json PATH`` also writes the figures of 1 and 2 there, with
the command, the machine's cores and load, and ``--note`` (say what else the machine was doing).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import re
import shlex
import statistics
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from py2048 import Game
from py2048.solver import PRESETS

# internal: the quickest preset, which the browser's hints start with
from py2048.solver.presets import QUICKEST_PRESET

STATIC_DIR = Path(__file__).resolve().parents[1] / "src" / "py2048" / "web" / "static"
P99_TARGET_MS = 5.0
ATTACKED_P99_TARGET_MS = 10.0
WEIGHT_TARGET_BYTES = 150 * 1024
DIRECTIONS = ("up", "right", "down", "left")
SERVER_START_TIMEOUT_S = 60


# --- the server under test ---------------------------------------------------------------------


def start_server(tables: Path) -> tuple[subprocess.Popen[str], str, int]:
    process = subprocess.Popen(
        [sys.executable, "-m", "py2048", "serve", "--port", "0", "--no-browser"],
        stdout=subprocess.PIPE,
        text=True,
        env=os.environ | {"PY2048_TABLES_DIR": str(tables)},
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    found = re.search(r"http://([\d.]+):(\d+)/", line)
    if not found:
        process.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    return process, found.group(1), int(found.group(2))


# --- a minimal keep-alive HTTP/1.1 client ------------------------------------------------------


class Connection:
    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    def post(self, path: str, body: bytes) -> bytes:
        """A prepared POST of a JSON body."""
        head = (
            f"POST {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
        )
        return head.encode() + body

    def get(self, path: str) -> bytes:
        return f"GET {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n\r\n".encode()

    async def send(self, raw: bytes) -> tuple[int, bytes]:
        """Send one prepared request and read the whole answer: (status, body)."""
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        try:
            self.writer.write(raw)
            status = int((await self.reader.readline()).split()[1])
            length = 0
            while (line := await self.reader.readline()) not in (b"\r\n", b""):
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            return status, await self.reader.readexactly(length)
        except (OSError, ValueError, IndexError, asyncio.IncompleteReadError):
            self.close()
            raise

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


# --- CPU cost of one move inside the app ------------------------------------------------------


async def asgi_post(app: object, path: str, body: bytes) -> int:
    """One POST straight through the ASGI app; the response status."""
    status = 0
    delivered = False

    async def receive() -> dict[str, object]:
        nonlocal delivered
        if delivered:
            await asyncio.Event().wait()  # no disconnect: wait as a live client would
        delivered = True
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict[str, object]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = int(message["status"])  # type: ignore[call-overload]

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [
            (b"host", b"127.0.0.1:2048"),
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        ],
        "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 2048),
    }
    await app(scope, receive, send)  # type: ignore[operator]
    return status


def report_cpu_per_move(bodies: list[bytes], rounds: int = 5) -> float:
    from py2048.web import create_app

    app = create_app()

    async def run() -> float:
        for body in bodies:  # warm up every path once
            assert await asgi_post(app, "/api/move", body) == 200
        started = time.process_time()
        for _ in range(rounds):
            for body in bodies:
                await asgi_post(app, "/api/move", body)
        return (time.process_time() - started) / (rounds * len(bodies))

    per_move = asyncio.run(run())
    print(
        f"server CPU per /api/move, in process through the whole ASGI app: "
        f"{per_move * 1e6:.0f} us ({rounds * len(bodies)} moves)"
    )
    return per_move


# --- the load ------------------------------------------------------------------------------


@dataclass
class Results:
    latencies_ms: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    late_sends: int = 0
    hints: int = 0
    hint_statuses: dict[int, int] = field(default_factory=dict)
    hint_ms: list[float] = field(default_factory=list)

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


def move_bodies(count: int, rng: random.Random) -> list[bytes]:
    """Saves from games part-way through (random play), each with a direction to play."""
    bodies = []
    for _ in range(count):
        game = Game.replay(rng.randrange(2**53), rng.choices(DIRECTIONS, k=rng.randrange(400)))
        state = game.to_dict()
        bodies.append(json.dumps({"state": state, "direction": rng.choice(DIRECTIONS)}).encode())
    return bodies


async def worker(
    conn: Connection, queue: asyncio.Queue[tuple[float, bytes] | None], results: Results | None
) -> None:
    loop = asyncio.get_running_loop()
    while (job := await queue.get()) is not None:
        due, raw = job
        try:
            status, _ = await conn.send(raw)
        except Exception as exc:
            if results is not None:
                results.error(type(exc).__name__)
            continue
        if results is not None:
            results.latencies_ms.append((loop.time() - due) * 1000)
            if status != 200:
                results.error(f"HTTP {status}")


async def drive(
    host: str,
    port: int,
    rate: float,
    seconds: float,
    connections: int,
    requests: list[bytes],
    results: Results | None,
) -> None:
    """Send ``requests`` (cycled) at ``rate`` per second on schedule, whatever the answers do."""
    loop = asyncio.get_running_loop()
    conns = [Connection(host, port) for _ in range(connections)]
    queue: asyncio.Queue[tuple[float, bytes] | None] = asyncio.Queue()
    workers = [asyncio.create_task(worker(c, queue, results)) for c in conns]
    start = loop.time() + 0.05
    for i in range(int(rate * seconds)):
        due = start + i / rate
        delay = due - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        elif delay < -0.001 and results is not None:
            results.late_sends += 1
        queue.put_nowait((due, requests[i % len(requests)]))
    for _ in workers:
        queue.put_nowait(None)
    await asyncio.gather(*workers)
    for conn in conns:
        conn.close()


async def hint_client(
    host: str, port: int, preset: str, stop: asyncio.Event, results: Results, rng: random.Random
) -> None:
    conn = Connection(host, port)
    loop = asyncio.get_running_loop()
    states = [json.loads(b)["state"] for b in move_bodies(20, rng)]
    while not stop.is_set():
        body = json.dumps({"state": rng.choice(states), "preset": preset}).encode()
        started = loop.time()
        try:
            status, _ = await conn.send(conn.post("/api/hint", body))
        except Exception:
            status = -1
        results.hints += 1
        results.hint_statuses[status] = results.hint_statuses.get(status, 0) + 1
        if status == 200:
            results.hint_ms.append((loop.time() - started) * 1000)
        elif status == 429:
            await asyncio.sleep(0.05)
    conn.close()


def attack_body() -> bytes:
    """Many small nested lists in a body just under the server's limit (the probe's attack)."""
    # internal: the server's body limit, which the attack is sized to stay under
    from py2048.web.limits import MAX_BODY_BYTES

    unit = b"[[[[[[[[[[[]]]]]]]]]]]"
    count = (MAX_BODY_BYTES - 100) // (len(unit) + 1)
    return b'{"seed": 1, "x": [' + b",".join([unit] * count) + b"]}"


@dataclass
class Attack:
    sent: int = 0
    statuses: dict[int, int] = field(default_factory=dict)
    answer_ms: list[float] = field(default_factory=list)
    bytes_sent: list[int] = field(default_factory=list)
    """For the header attack: how many bytes of each request went out before it ended."""


HEADER_ATTACK_BYTES = 64 * 1024 * 1024
HEADER_ATTACK_PIECE = 64 * 1024


async def header_attack_client(host: str, port: int, until: float, attack: Attack) -> None:
    """One request with a 64 MB header value sent in 64 KiB pieces, again and again."""
    loop = asyncio.get_running_loop()
    piece = b"a" * HEADER_ATTACK_PIECE
    start = f"GET /healthz HTTP/1.1\r\nHost: {host}:{port}\r\nX-Big: ".encode()
    while loop.time() < until:
        started = loop.time()
        status, sent = -1, 0
        try:
            reader, writer = await asyncio.open_connection(host, port)
        except OSError:
            await asyncio.sleep(0.01)
            continue
        answer = asyncio.ensure_future(reader.readline())
        try:
            writer.write(start)
            while sent < HEADER_ATTACK_BYTES and loop.time() < until and not answer.done():
                writer.write(piece)
                await writer.drain()
                sent += len(piece)
            if sent >= HEADER_ATTACK_BYTES:
                writer.write(b"\r\n\r\n")
                await writer.drain()
        except OSError:
            pass  # the server closed the connection
        try:
            line = await asyncio.wait_for(answer, timeout=30)
            status = int(line.split()[1]) if line else -1
        except (OSError, ValueError, IndexError, TimeoutError):
            pass
        finally:
            writer.close()
        attack.sent += 1
        attack.statuses[status] = attack.statuses.get(status, 0) + 1
        attack.answer_ms.append((loop.time() - started) * 1000)
        attack.bytes_sent.append(sent + len(start))


async def attack_client(host: str, port: int, until: float, attack: Attack) -> None:
    conn = Connection(host, port)
    loop = asyncio.get_running_loop()
    raw = conn.post("/api/new", attack_body())
    while loop.time() < until:
        started = loop.time()
        try:
            status, _ = await conn.send(raw)
        except Exception:
            status = -1
            await asyncio.sleep(0.01)
        attack.sent += 1
        attack.statuses[status] = attack.statuses.get(status, 0) + 1
        attack.answer_ms.append((loop.time() - started) * 1000)
    conn.close()


def run_attackers(
    host: str, port: int, clients: int, seconds: float, results: Any, headers: bool = False
) -> None:
    """In a process of its own, so that sending the attacks does not slow the load generator:
    the nested-lists bodies, or with ``headers`` the 64 MB header."""
    client = header_attack_client if headers else attack_client

    async def attack_for() -> Attack:
        attack = Attack()
        until = asyncio.get_running_loop().time() + seconds
        await asyncio.gather(*(client(host, port, until, attack) for _ in range(clients)))
        return attack

    results.send(asdict(asyncio.run(attack_for())))


async def measure(
    host: str, port: int, args: argparse.Namespace
) -> tuple[Results, Results, Results, Attack, Results, Attack]:
    """(/healthz alone: the floor of this generator on this machine, /api/move with hints,
    /api/move with hints and attack clients, what the attack clients got, /api/move with hints
    and header attack clients, what those got)."""
    rng = random.Random(args.seed)
    prepare = Connection(host, port)
    moves = [prepare.post("/api/move", body) for body in move_bodies(500, rng)]
    warm_state = {"state": Game(seed=1).to_dict(), "preset": QUICKEST_PRESET}
    warm_body = json.dumps(warm_state).encode()
    await prepare.send(prepare.post("/api/hint", warm_body))  # waits for the solver's warm-up
    prepare.close()
    await drive(host, port, args.rate, 2.0, args.connections, moves, None)

    floor = Results()
    health = [prepare.get("/healthz")]
    await drive(host, port, args.rate, min(args.seconds, 10.0), args.connections, health, floor)

    loaded = Results()
    stop = asyncio.Event()
    hinters = [
        asyncio.create_task(hint_client(host, port, args.hint_preset, stop, loaded, rng))
        for _ in range(args.hint_clients)
    ]
    await asyncio.sleep(0.2)
    await drive(host, port, args.rate, args.seconds, args.connections, moves, loaded)
    stop.set()
    await asyncio.gather(*hinters)

    attacked, attack = await under_attack(host, port, args, moves, rng, args.attack_clients)
    headed, header_attack = await under_attack(
        host, port, args, moves, rng, args.head_attack_clients, headers=True
    )
    return floor, loaded, attacked, attack, headed, header_attack


async def under_attack(
    host: str,
    port: int,
    args: argparse.Namespace,
    moves: list[bytes],
    rng: random.Random,
    clients: int,
    headers: bool = False,
) -> tuple[Results, Attack]:
    """/api/move with hints while ``clients`` attackers run in a process of their own."""
    results = Results()
    stop = asyncio.Event()
    hinters = [
        asyncio.create_task(hint_client(host, port, args.hint_preset, stop, results, rng))
        for _ in range(args.hint_clients)
    ]
    receiving, sending = multiprocessing.get_context("spawn").Pipe(duplex=False)
    attackers = multiprocessing.get_context("spawn").Process(
        target=run_attackers,
        args=(host, port, clients, args.seconds + 1.0, sending, headers),
    )
    attackers.start()
    await asyncio.sleep(1.0)  # the attackers' process starts and begins sending
    await drive(host, port, args.rate, args.seconds, args.connections, moves, results)
    stop.set()
    await asyncio.gather(*hinters)
    attack = Attack(**await asyncio.to_thread(receiving.recv))
    attackers.join()
    return results, attack


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def latency_summary(latencies_ms: list[float]) -> str:
    return (
        f"p50 {statistics.median(latencies_ms):.2f} ms, p90 {percentile(latencies_ms, 0.90):.2f} "
        f"ms, p99 {percentile(latencies_ms, 0.99):.2f} ms, max {max(latencies_ms):.2f} ms"
    )


def report_load(
    floor: Results, loaded: Results, args: argparse.Namespace, target_ms: float = P99_TARGET_MS
) -> None:
    if floor.latencies_ms:
        print(f"floor: GET /healthz at {args.rate:g} req/s with no hints (generator + uvicorn)")
        print(f"  latency: {latency_summary(floor.latencies_ms)}; errors: {floor.errors or 'none'}")
    print(
        f"/api/move at {args.rate:g} req/s for {args.seconds:g} s over {args.connections} "
        f"connections, {args.hint_clients} hint clients (preset {args.hint_preset}) in parallel"
    )
    lat = loaded.latencies_ms
    print(f"  requests: {int(args.rate * args.seconds)} sent, {len(lat)} answered")
    print(f"  errors: {loaded.errors or 'none'}")
    if lat:
        p99 = percentile(lat, 0.99)
        print(f"  latency (from the moment each request was due): {latency_summary(lat)}")
        verdict = "met" if p99 < target_ms and not loaded.errors else "MISSED"
        print(
            f"  p99 / target: {p99:.2f} / {target_ms:g} ms = {p99 / target_ms:.2f} "
            f"-> target {verdict}"
        )
    print(f"  generator: {loaded.late_sends} sends more than 1 ms behind schedule")
    print(f"  hints: {loaded.hints} answered, statuses {loaded.hint_statuses}", end="")
    if loaded.hint_ms:
        hint_ms = loaded.hint_ms
        print(f", median {statistics.median(hint_ms):.0f} ms, max {max(hint_ms):.0f} ms")
    else:
        print()


def report_attack(attacked: Results, attack: Attack, args: argparse.Namespace) -> None:
    print(
        f"under attack: the same, with {args.attack_clients} more clients (a process of their own) "
        f"sending the nested-lists body ({len(attack_body()) / 1024:.0f} KiB) back to back"
    )
    report_load(Results(), attacked, args, ATTACKED_P99_TARGET_MS)
    if attack.answer_ms:
        print(
            f"  attack requests: {attack.sent} answered, statuses {attack.statuses}, "
            f"median {statistics.median(attack.answer_ms):.1f} ms, "
            f"max {max(attack.answer_ms):.1f} ms each"
        )


def report_header_attack(attacked: Results, attack: Attack, args: argparse.Namespace) -> None:
    print(
        f"under a header attack: the same, with {args.head_attack_clients} more clients (a "
        f"process of their own) each sending a {HEADER_ATTACK_BYTES >> 20} MB header value in "
        f"{HEADER_ATTACK_PIECE >> 10} KiB pieces, on a new connection when one is closed"
    )
    report_load(Results(), attacked, args, ATTACKED_P99_TARGET_MS)
    if attack.bytes_sent:
        print(
            f"  header requests: {attack.sent}, statuses {attack.statuses} (-1: closed without "
            f"an answer), bytes each sent before it ended: median "
            f"{statistics.median(attack.bytes_sent) / 1024:.0f} KiB, max "
            f"{max(attack.bytes_sent) / 1024:.0f} KiB; median "
            f"{statistics.median(attack.answer_ms):.1f} ms, max {max(attack.answer_ms):.1f} ms each"
        )


def load_figures(results: Results, target_ms: float | None) -> dict[str, Any]:
    """One run of the generator as the --json file keeps it."""
    lat = results.latencies_ms
    figures: dict[str, Any] = {"answered": len(lat), "errors": results.errors}
    if lat:
        figures |= {
            "p50_ms": round(statistics.median(lat), 3),
            "p90_ms": round(percentile(lat, 0.90), 3),
            "p99_ms": round(percentile(lat, 0.99), 3),
            "max_ms": round(max(lat), 3),
        }
    if target_ms is not None:
        met = bool(lat) and percentile(lat, 0.99) < target_ms and not results.errors
        figures |= {"p99_target_ms": target_ms, "target_met": met}
    figures |= {"late_sends": results.late_sends, "hints": results.hints}
    figures["hint_statuses"] = {str(k): v for k, v in results.hint_statuses.items()}
    if results.hint_ms:
        figures["hint_median_ms"] = round(statistics.median(results.hint_ms), 1)
    return figures


def attack_figures(attack: Attack) -> dict[str, Any]:
    """What the attack clients got, as the --json file keeps it."""
    figures: dict[str, Any] = {
        "requests": attack.sent,
        "statuses": {str(k): v for k, v in attack.statuses.items()},
    }
    if attack.answer_ms:
        figures["median_ms"] = round(statistics.median(attack.answer_ms), 1)
        figures["max_ms"] = round(max(attack.answer_ms), 1)
    if attack.bytes_sent:
        figures["median_bytes_sent"] = int(statistics.median(attack.bytes_sent))
        figures["max_bytes_sent"] = max(attack.bytes_sent)
    return figures


# --- page weight and external references --------------------------------------------------------


LOADING_ATTRIBUTES = {
    "link": "href",
    "script": "src",
    "img": "src",
    "source": "src",
    "iframe": "src",
    "embed": "src",
    "object": "data",
}


class Loads(HTMLParser):
    """The URLs an HTML page loads by itself (not the links a reader may follow)."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        attribute = LOADING_ATTRIBUTES.get(tag)
        if attribute and attribute in values:
            self.urls.append(values[attribute])
        self.urls += re.findall(r"url\(\s*['\"]?([^'\")]+)", values.get("style", ""))


CSS_LOADS = re.compile(r"""url\(\s*['"]?([^'")]+)|@import\s+['"]([^'"]+)""")
JS_LOADS = re.compile(
    r"""\bimport\s*(?:[\w*{}\s,]+from\s*)?\(?\s*['"]([^'"]+)['"]|\bfetch\(\s*['"`]([^'"`]+)"""
)


def loaded_urls(path: Path, text: str) -> list[str]:
    if path.suffix == ".html":
        parser = Loads()
        parser.feed(text)
        return parser.urls
    pattern = {".css": CSS_LOADS, ".js": JS_LOADS}.get(path.suffix)
    return [a or b for a, b in pattern.findall(text)] if pattern else []


def is_external(url: str) -> bool:
    parts = urlsplit(url.strip())
    return bool(parts.netloc) or parts.scheme not in ("", "data")


def report_pages(rendered_solver_page: str) -> None:
    files = sorted(p for p in STATIC_DIR.rglob("*") if p.is_file())
    by_kind: dict[str, int] = {}
    external: list[str] = []
    for path in files:
        kind = path.suffix or path.name
        by_kind[kind] = by_kind.get(kind, 0) + path.stat().st_size
        if path.suffix in (".html", ".css", ".js"):
            urls = loaded_urls(path, path.read_text(encoding="utf-8"))
            external += [f"{path.relative_to(STATIC_DIR)}: {u}" for u in urls if is_external(u)]
    external += [f"/solver: {u}" for u in loaded_urls(Path("solver.html"), rendered_solver_page)]
    external = [e for e in external if is_external(e.partition(": ")[2])]
    total = sum(by_kind.values())
    kinds = ", ".join(f"{kind} {size / 1024:.1f} KB" for kind, size in sorted(by_kind.items()))
    verdict = "met" if total < WEIGHT_TARGET_BYTES else "MISSED"
    print(f"page weight: {len(files)} files under src/py2048/web/static, {total / 1024:.1f} KB")
    print(f"  by kind: {kinds}")
    print(
        f"  total / target: {total / 1024:.1f} / {WEIGHT_TARGET_BYTES / 1024:g} KB = "
        f"{total / WEIGHT_TARGET_BYTES:.2f} -> target {verdict}"
    )
    print(f"  external loads (static files and the rendered /solver page): {external or 'none'}")


async def fetch_page(host: str, port: int, path: str) -> str:
    reader, writer = await asyncio.open_connection(host, port)
    request = f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n"
    writer.write(request.encode())
    data = await reader.read()
    writer.close()
    return data.partition(b"\r\n\r\n")[2].decode()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=float, default=200.0, help="moves per second")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured duration")
    parser.add_argument("--connections", type=int, default=8, help="keep-alive connections")
    parser.add_argument("--hint-clients", type=int, default=2, help="back-to-back hint clients")
    parser.add_argument("--hint-preset", default="strong", choices=list(PRESETS))
    parser.add_argument(
        "--attack-clients", type=int, default=2, help="back-to-back nested-lists attackers"
    )
    parser.add_argument(
        "--head-attack-clients", type=int, default=1, help="clients sending a 64 MB header"
    )
    parser.add_argument("--seed", type=int, default=2048, help="seed of the generated saves")
    parser.add_argument(
        "--tables",
        type=Path,
        help="the server's tables folder (default: $PY2048_TABLES_DIR, else the user cache's)",
    )
    parser.add_argument("--json", dest="json_path", metavar="PATH", help="write the figures")
    parser.add_argument("--note", default="", help="what else the machine was doing (--json)")
    args = parser.parse_args()
    from py2048.tables import tables_dir

    tables = tables_dir(args.tables).resolve()
    print(f"tables folder of the server (PY2048_TABLES_DIR): {tables}")

    per_move = report_cpu_per_move(move_bodies(500, random.Random(args.seed)))
    process, host, port = start_server(tables)
    try:
        started = time.monotonic()
        floor, loaded, attacked, attack, headed, header_attack = asyncio.run(
            measure(host, port, args)
        )
        seconds, loads = time.monotonic() - started, os.getloadavg()
        load = ", ".join(f"{x:.1f}" for x in loads)
        print(f"(measured in {seconds:.0f} s on {os.cpu_count()} cores; load average now {load})")
        report_load(floor, loaded, args)
        report_attack(attacked, attack, args)
        report_header_attack(headed, header_attack, args)
        report_pages(asyncio.run(fetch_page(host, port, "/solver")))
        if args.json_path:
            settings = {
                name: str(value) if isinstance(value, Path) else value
                for name, value in vars(args).items()
                if name not in ("json_path", "note")
            }
            report = {
                "command": shlex.join(["python", "benchmarks/web.py", *sys.argv[1:]]),
                "environment": {"PY2048_TABLES_DIR": os.environ.get("PY2048_TABLES_DIR")},
                "date": time.strftime("%Y-%m-%d %H:%M"),
                "machine": {
                    "cores": os.cpu_count(),
                    "niceness": os.nice(0),
                    "load_average_after": [round(x, 2) for x in loads],
                },
                "note": args.note,
                "tables_dir": str(tables),
                "settings": settings,
                "measured_seconds": round(seconds, 1),
                "server_cpu_per_move_us": round(per_move * 1e6, 1),
                "floor_healthz": load_figures(floor, None),
                "moves_with_hints": load_figures(loaded, P99_TARGET_MS),
                "moves_under_nested_lists_attack": load_figures(attacked, ATTACKED_P99_TARGET_MS),
                "nested_lists_attack": attack_figures(attack),
                "moves_under_header_attack": load_figures(headed, ATTACKED_P99_TARGET_MS),
                "header_attack": attack_figures(header_attack),
            }
            text = json.dumps(report, indent=1) + "\n"
            Path(args.json_path).write_text(text, encoding="utf-8")
            print(f"figures: {args.json_path}")
    finally:
        process.terminate()
        process.wait(timeout=30)


if __name__ == "__main__":
    main()
