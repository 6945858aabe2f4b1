"""A TCP proxy that adds a fixed delay to every round trip: `python bench/delay_proxy.py
--upstream http://127.0.0.1:PORT --rtt-ms 50` prints `{"url": ...}` on one line, then serves
until killed, printing `{"request": T, "line": L}` when a connection's first bytes arrive (T:
this machine's monotonic clock, `time.monotonic()`, the same in every process; L: the request
line, "GET /path HTTP/1.1", or null where the bytes are not plain HTTP, as a TLS handshake's),
so the bench can time an app from its first request instead of from its start.

Each chunk is forwarded half the round-trip time after it arrived, in both directions, without
holding back the chunks behind it (a link's latency, not its bandwidth): a request and its
answer take one added round trip, requests on separate connections overlap as they would on a
network. Opening a connection adds nothing (a real network's TCP handshake would add one more
round trip per new connection): the figures count the app's sequential requests.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import ssl
import sys
import time
from urllib.parse import urlsplit

CHUNK = 65536


def _nodelay(writer: asyncio.StreamWriter) -> None:
    sock = writer.get_extra_info("socket")
    if sock is not None:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def _request_line(data: bytes) -> str | None:
    line = data.split(b"\r\n", 1)[0].decode("latin-1")
    return line if line.endswith((" HTTP/1.1", " HTTP/1.0")) else None


async def _forward(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, delay: float, *, say: bool = False
) -> None:
    """Copy reader to writer, each chunk `delay` seconds after it arrived; `say`: print when the
    first chunk arrived."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

    async def read() -> None:
        first = say
        try:
            while data := await reader.read(CHUNK):
                if first:
                    said = {"request": time.monotonic(), "line": _request_line(data)}
                    print(json.dumps(said), flush=True)
                    first = False
                queue.put_nowait((loop.time() + delay, data))
        except ConnectionError:
            pass
        queue.put_nowait((loop.time() + delay, b""))

    reading = asyncio.create_task(read())
    try:
        while True:
            due, data = await queue.get()
            if due > loop.time():
                await asyncio.sleep(due - loop.time())
            if not data:
                break
            writer.write(data)
            await writer.drain()
    except ConnectionError:
        pass
    finally:
        reading.cancel()
        writer.close()


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Copy without delay (TLS's end inside the proxy to the upstream, both on loopback)."""
    try:
        while data := await reader.read(CHUNK):
            writer.write(data)
            await writer.drain()
    except ConnectionError:
        pass
    finally:
        writer.close()


def serve(upstream: str, rtt_s: float, tls: ssl.SSLContext | None = None) -> None:
    parts = urlsplit(upstream)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80

    async def relay(
        client_r: asyncio.StreamReader,
        client_w: asyncio.StreamWriter,
        to: tuple[str, int],
        connect_s: float = 0.0,
    ) -> None:
        """Client to `to` and back, each chunk half a round trip late; `connect_s` first."""
        await asyncio.sleep(connect_s)
        try:
            server_r, server_w = await asyncio.open_connection(*to)
        except OSError:
            client_w.close()
            return
        _nodelay(client_w)
        _nodelay(server_w)
        await asyncio.gather(
            _forward(client_r, server_w, rtt_s / 2, say=True),
            _forward(server_r, client_w, rtt_s / 2),
        )

    async def handle(client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        await relay(client_r, client_w, (host, port))

    async def end_tls(client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        try:
            server_r, server_w = await asyncio.open_connection(host, port)
        except OSError:
            client_w.close()
            return
        await asyncio.gather(_pipe(client_r, server_w), _pipe(server_r, client_w))

    async def delayed_tls(client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        """The network between the app and TLS's end: TCP's handshake, then each flight."""
        await relay(client_r, client_w, ("127.0.0.1", tls_port), connect_s=rtt_s)

    tls_port = 0

    async def main() -> None:
        nonlocal tls_port
        scheme = "http"
        if tls is None:
            server = await asyncio.start_server(handle, "127.0.0.1", 0)
        else:
            ending = await asyncio.start_server(end_tls, "127.0.0.1", 0, ssl=tls)
            tls_port = ending.sockets[0].getsockname()[1]
            server = await asyncio.start_server(delayed_tls, "127.0.0.1", 0)
            scheme = "https"
        bound = server.sockets[0].getsockname()[1]
        print(json.dumps({"url": f"{scheme}://127.0.0.1:{bound}"}), flush=True)
        async with server:
            await server.serve_forever()

    asyncio.run(main())


def tls_context(cert: str, key: str) -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    return context


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--upstream", required=True, help="http://host:port of the server")
    parser.add_argument("--rtt-ms", type=float, default=50.0, help="added round-trip time")
    parser.add_argument("--tls-cert", help="serve HTTPS with this certificate (PEM)")
    parser.add_argument("--tls-key", help="... and this key (PEM)")
    args = parser.parse_args()
    tls = tls_context(args.tls_cert, args.tls_key) if args.tls_cert else None
    try:
        serve(args.upstream, args.rtt_ms / 1000, tls)
    except KeyboardInterrupt:
        sys.exit(0)
