"""Connections to a server are bounded and reused: a burst of reads (the failures view reads
every integration at once) opens at most 16, and the next read, right after, opens none. Counted
by a loopback TCP relay in front of the sandbox: each connection it accepts is one the client
opened (over TLS, each costs its handshakes)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from flagtui.api import AdminClient


class CountingRelay:
    """Relays loopback TCP to the sandbox and counts the connections it accepted."""

    def __init__(self, upstream_port: int) -> None:
        self.upstream_port = upstream_port
        self.accepted = 0
        self.url = ""

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(ConnectionError):
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        writer.close()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.accepted += 1
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.upstream_port)
        await asyncio.gather(self._pipe(reader, up_writer), self._pipe(up_reader, writer))

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[CountingRelay]:
        server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
        self.url = f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}"
        async with server:
            yield self
            server.close()


async def test_a_burst_of_reads_opens_at_most_16_connections_the_next_read_reuses_one(sandbox):
    port = int(sandbox.url.rsplit(":", 1)[1])
    relay = CountingRelay(port)
    async with relay.running(), AdminClient(relay.url, sandbox.admin_token, profile="p") as client:
        burst = [client.integrations.list() for _ in range(40)]
        answers = await asyncio.gather(*burst)
        assert all(answer.addons for answer in answers)
        first = relay.accepted
        assert 1 <= first <= 16
        await client.integrations.list()  # right after: kept alive, none opened
        assert relay.accepted == first
