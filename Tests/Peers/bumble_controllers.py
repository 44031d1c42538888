#!/usr/bin/env python3
"""Virtual controllers nobody here wrote: Google Bumble's `bumble.controller.Controller`s on
one `bumble.link.LocalLink`, each given to an outside host on a pseudo-terminal speaking H4
(as Bumble's own `pty` transport does: the pty's primary side is parsed as H4 packets into the
controller by Bumble's `StreamPacketSource`, and the controller's packets are written to it
whole; the replica stays open in this process, so a host may close and reopen it). They have no Channel Sounding.

Prints one JSON line on stdout once every pty is ready:
  {"ptys": ["/dev/pts/N", ...], "links": [PATH or null, ...], "public_addresses": [...]}
and with --phone, when the phone is done, a second line {"phone": {...}} (the object
`bumble_controller_phone.py` prints), then keeps the link up until stdin closes.

Runs until stdin closes (end of file; --no-stdin: not watched, as a shell's background job
has /dev/null there), SIGTERM or SIGINT, or --lifetime seconds pass; then closes the ptys (and
removes the --link symlinks) and exits 0.

--phone runs Bumble's host as the phone in this process on one more controller of the same
link (no pty): it scans for an advertiser of the Ranging Service and runs every step of
`bumble_controller_phone.run_phone` (pair, discover, subscribe, reconnect with the bond...).

--trace FILE writes every HCI packet each pty's controller exchanges, one JSON object a line:
  {"t": seconds, "controller": index, "dir": "host>ctrl"|"ctrl>host", "hex": "01030c00"}

--accept-command OPCODE (a diagnostic, repeatable) makes the pty controllers answer that
command with Success where Bumble answers otherwise (e.g. 0x208D, LE CS Set Default Settings,
which it answers Unknown HCI Command): to see what a host does past it. Not what Bumble does.

usage: bumble_controllers.py [--ptys N] [--link PATH]... [--phone] [--timeout S]
                             [--trace FILE] [--lifetime S] [--no-stdin] [--accept-command OPCODE]...
                             [--verbose]
"""
import argparse
import asyncio
import json
import logging
import os
import pty
import signal
import sys
import time
import tty

from bumble import hci
from bumble.controller import Controller
from bumble.link import LocalLink
from bumble.transport.common import StreamPacketSink, StreamPacketSource

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


class Tap:
    """A sink that records each packet before passing it on."""

    def __init__(self, sink, trace, index, direction, start):
        self.sink, self.trace, self.index, self.direction, self.start = sink, trace, index, direction, start

    def on_packet(self, packet):
        self.trace.write(json.dumps({"t": round(time.monotonic() - self.start, 6), "controller": self.index,
                                     "dir": self.direction, "hex": bytes(packet).hex()}) + "\n")
        self.trace.flush()
        self.sink.on_packet(packet)


class TappedSource:
    """A transport source whose packets go through a `Tap` to the sink it is given."""

    def __init__(self, source, trace, index, start):
        self.source, self.trace, self.index, self.start = source, trace, index, start
        self.terminated = source.terminated

    def set_packet_sink(self, sink):
        self.source.set_packet_sink(Tap(sink, self.trace, self.index, "host>ctrl", self.start))


async def run(args):
    loop = asyncio.get_running_loop()
    stop = loop.create_future()

    def finish(why):
        if not stop.done():
            stop.set_result(why)

    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, finish, sig.name)

    # End of stdin ends the run (a test closes its pipe); read without blocking.
    def stdin_readable():
        try:
            data = os.read(sys.stdin.fileno(), 4096)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            loop.remove_reader(sys.stdin.fileno())
            finish("stdin closed")

    if not args.no_stdin:
        try:
            os.set_blocking(sys.stdin.fileno(), False)
            loop.add_reader(sys.stdin.fileno(), stdin_readable)
        except (OSError, ValueError):
            pass  # no stdin to watch: signals and --lifetime end the run
    if args.lifetime > 0:
        loop.call_later(args.lifetime, finish, "lifetime")

    trace = open(args.trace, "w") if args.trace else None
    start = time.monotonic()
    link = LocalLink()
    transports, controllers, ptys = [], [], []
    links = list(args.link or [])
    count = max(args.ptys, len(links))
    try:
        for index in range(count):
            path = links[index] if index < len(links) else None
            transport = await PtyController().open(path)
            transports.append(transport)
            source, sink = transport.source, transport.sink
            if trace:
                source = TappedSource(source, trace, index, start)
                sink = Tap(sink, trace, index, "ctrl>host", start)
            controller = Controller(f"C{index}", host_source=source, host_sink=sink, link=link,
                                    public_address=f"00:B0:B0:00:00:{index:02X}")
            for opcode in args.accept_command or []:
                accept(controller, opcode)
            controllers.append(controller)
            ptys.append(transport.path)
        print(json.dumps({"ptys": ptys, "links": [links[i] if i < len(links) else None for i in range(count)],
                          "public_addresses": [str(c.public_address).replace("/P", "") for c in controllers]}), flush=True)

        phone = None
        if args.phone:
            from bumble.host import Host
            from bumble.transport.common import AsyncPipeSink
            import bumble_controller_phone as phone_module
            controller = Controller("phone", link=link, public_address="00:B0:B0:00:00:FF")
            device = phone_module.make_device("bumble-phone", controller, AsyncPipeSink(controller))

            async def run_phone():
                await asyncio.wait_for(device.power_on(), args.timeout)
                result = await phone_module.run_phone(device, args.timeout)
                print(json.dumps({"phone": result}), flush=True)

            phone = asyncio.ensure_future(run_phone())
            phone.add_done_callback(lambda task: task.cancelled() or task.exception() is None
                                    or print(json.dumps({"phone": {"ok": False, "error": repr(task.exception())}}), flush=True))
        why = await stop
        if phone is not None and not phone.done():
            phone.cancel()
        print(f"bumble_controllers: stopping ({why})", file=sys.stderr, flush=True)
    finally:
        for transport in transports:
            transport.close()
        if trace:
            trace.close()
    return 0


def accept(controller, opcode):
    """Makes `controller` answer the command `opcode` (one Bumble knows and answers with Command
    Complete) with Success instead of its own answer: a diagnostic, to see what a host does past
    a command this controller refuses. Not what a controller nobody here wrote does."""
    command_class = hci.HCI_Command.command_classes.get(opcode)
    if command_class is None or not issubclass(command_class, hci.HCI_SyncCommand):
        raise SystemExit(f"--accept-command 0x{opcode:04X}: not a command Bumble answers with Command Complete")

    def handler(command):
        if hasattr(command, "connection_handle"):
            return hci.HCI_StatusAndConnectionHandleReturnParameters(status=hci.HCI_SUCCESS, connection_handle=command.connection_handle)
        return hci.HCI_StatusReturnParameters(status=hci.HCI_SUCCESS)

    setattr(controller, f"on_{hci.HCI_Command.command_name(opcode).lower()}", handler)


class PtyController:
    """One pty whose primary side is H4 to and from a controller (as Bumble's `pty` transport,
    but keeping the replica's path): raw mode on both sides, H4 packets parsed by Bumble's
    `StreamPacketSource`, the controller's packets written whole by `StreamPacketSink`."""

    def __init__(self):
        self.primary = self.replica = None
        self.link = None

    async def open(self, link=None):
        loop = asyncio.get_running_loop()
        self.primary, self.replica = pty.openpty()
        self.path = os.ttyname(self.replica)
        tty.setraw(self.primary)
        tty.setraw(self.replica)
        self.read_transport, self.source = await loop.connect_read_pipe(StreamPacketSource, open(self.primary, "rb", closefd=False))
        self.write_transport, _ = await loop.connect_write_pipe(asyncio.BaseProtocol, open(self.primary, "wb", closefd=False))
        self.sink = StreamPacketSink(self.write_transport)
        if link:
            if os.path.lexists(link):
                os.unlink(link)
            os.symlink(self.path, link)
            self.link = link
        return self

    def close(self):
        for t in (getattr(self, "write_transport", None), getattr(self, "read_transport", None)):
            if t is not None:
                t.close()
        for fd in (self.primary, self.replica):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        if self.link:
            try:
                os.unlink(self.link)
            except FileNotFoundError:
                pass


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ptys", type=int, default=1, help="controllers on ptys (default 1; at least one per --link)")
    parser.add_argument("--link", action="append", help="a symlink to create to a pty (repeatable, one per controller)")
    parser.add_argument("--phone", action="store_true", help="also run the Bumble phone in process on one more controller")
    parser.add_argument("--timeout", type=float, default=15.0, help="the phone's limit per step, seconds (default 15)")
    parser.add_argument("--trace", help="write every HCI packet of the pty controllers to FILE (JSON lines)")
    parser.add_argument("--lifetime", type=float, default=600.0, help="stop after S seconds at most (default 600; 0: no limit)")
    parser.add_argument("--accept-command", action="append", type=lambda v: int(v, 0), metavar="OPCODE",
                        help="diagnostic: the pty controllers answer this command (e.g. 0x208D) with Success instead of their own answer")
    parser.add_argument("--no-stdin", action="store_true",
                        help="do not stop at the end of stdin (for a shell's background job, whose stdin is /dev/null)")
    parser.add_argument("--verbose", action="store_true", help="Bumble's debug log on stderr")
    args = parser.parse_args()
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.WARNING, stream=sys.stderr)
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main())
