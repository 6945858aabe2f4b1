"""A TCP proxy that adds a fixed delay to every round trip: `python bench/delay_proxy.py
--upstream http://127.0.0.1:PORT --rtt-ms 50` prints `{"url": ...}` on one line, then serves
until killed, printing `{"request": T}` when a connection's first bytes arrive (T: this
machine's monotonic clock, `time.monotonic()`, the same in every process), so the bench can time
an app from its first request instead of from its start.

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
import sys
import time
from urllib.parse import urlsplit

CHUNK = 65536


def _nodelay(writer: asyncio.StreamWriter) -> None:
    sock = writer.get_extra_info("socket")
    if sock is not None:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


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
                    print(json.dumps({"request": time.monotonic()}), flush=True)
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


def serve(upstream: str, rtt_s: float) -> None:
    parts = urlsplit(upstream)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80

    async def handle(client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        try:
            server_r, server_w = await asyncio.open_connection(host, port)
        except OSError:
            client_w.close()
            return
        _nodelay(client_w)
        _nodelay(server_w)
        await asyncio.gather(
            _forward(client_r, server_w, rtt_s / 2, say=True),
            _forward(server_r, client_w, rtt_s / 2),
        )

    async def main() -> None:
        server = await asyncio.start_server(handle, "127.0.0.1", 0)
        bound = server.sockets[0].getsockname()[1]
        print(json.dumps({"url": f"http://127.0.0.1:{bound}"}), flush=True)
        async with server:
            await server.serve_forever()

    asyncio.run(main())


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--upstream", required=True, help="http://host:port of the server")
    parser.add_argument("--rtt-ms", type=float, default=50.0, help="added round-trip time")
    args = parser.parse_args()
    try:
        serve(args.upstream, args.rtt_ms / 1000)
    except KeyboardInterrupt:
        sys.exit(0)
