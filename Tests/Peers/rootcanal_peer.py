#!/usr/bin/env python3
"""Starts Google's RootCanal (Android's virtual controller, PyPI rootcanal==1.13.0) for a test, and
bridges ptys to it: TestSupport's RootCanalPeer, and scripts/rootcanal for a person.

usage: rootcanal_peer.py [--port-base B] [--pty LINK]... [--log FILE] [--timeout S] [--no-restart]

RootCanal listens on four TCP ports from the base B: test B, HCI B+1, link B+2, link_ble B+3
(without --port-base a free base is picked, and another one if RootCanal cannot bind it). Every
TCP client of the HCI port gets a controller of its own (public address DA:4C:10:DE:00:0n, n
counting the clients from 0), all on one LE "air". Each --pty LINK is such a client: `socat
PTY,link=LINK,raw,echo=0 TCP:127.0.0.1:B+1`, so a host of this project opens LINK as a board
(`reflector-emu check --pty LINK`). The bridges connect in the order given, each one once the
previous one's connection is established, so the first LINK is the controller ...:00.

The binary needs glibc 2.39 or later; it runs through the Debian 13 loader that scripts/ensure-deps
unpacks into ROOTCANAL_LOADER_DIR (default ~/.cache/reflector-emu/rootcanal-loader):
`LOADER --library-path LIBS:BINDIR BINDIR/rootcanal -test_port B -hci_port B+1 ...`.

Once the HCI port listens (checked in /proc/net/tcp, not by connecting, which would take a
controller) and every bridge is connected, it prints one line on stdout:

  ready port_base=B test_port=B hci_port=B+1 link_port=B+2 link_ble_port=B+3 ptys=LINK,...

It then runs until its stdin ends or it gets SIGTERM or SIGINT, and stops RootCanal and the bridges
(SIGTERM, then SIGKILL after 3 s; every child also gets SIGKILL if this process dies first). A bridge
whose host closed the pty ends (socat's pty reads EIO); it is started again on the same LINK (a new
TCP client: a fresh controller with the next address), unless --no-restart. If RootCanal ends by
itself, it says so on stderr and exits 1. Any failure to start prints one line `rootcanal: ...` on
stderr and exits 2 (3: not installed).

Not named rootcanal.py: that would hide the rootcanal package from the scripts of this folder.
"""
import argparse
import ctypes
import importlib.util
import os
import random
import select
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

LIBS = 'usr/lib/x86_64-linux-gnu'


def fail(message, status=2):
    sys.stderr.write('rootcanal: ' + message + '\n')
    sys.stderr.flush()
    sys.exit(status)


def loader_dir():
    cache = os.environ.get('XDG_CACHE_HOME') or os.path.join(os.path.expanduser('~'), '.cache')
    return os.environ.get('ROOTCANAL_LOADER_DIR') or os.path.join(cache, 'reflector-emu', 'rootcanal-loader')


def binary_dir():
    """The wheel's Linux binary folder, found without importing the package (whose
    rootcanal.controller does not import in 1.13.0)."""
    spec = importlib.util.find_spec('rootcanal')
    if spec is None or not spec.submodule_search_locations:
        return None
    return os.path.join(list(spec.submodule_search_locations)[0], 'bin', 'linux-x86_64')


def missing():
    """Why RootCanal cannot run here (None: it can)."""
    bindir = binary_dir()
    if bindir is None:
        return 'the rootcanal package (pip install rootcanal==1.13.0) is not installed'
    if not os.access(os.path.join(bindir, 'rootcanal'), os.X_OK):
        return 'no executable %s' % os.path.join(bindir, 'rootcanal')
    loader = os.path.join(loader_dir(), LIBS, 'ld-linux-x86-64.so.2')
    if not os.path.exists(loader):
        return 'no Debian 13 loader at %s' % loader
    if not any(os.access(os.path.join(d, 'socat'), os.X_OK) for d in os.environ.get('PATH', '').split(':')):
        return 'socat is not installed'
    return None


def die_with_parent():
    """In the child: SIGKILL when this launcher dies (no orphans even if it is killed)."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except Exception:
        pass


def tcp_sockets():
    """(local port, state) of every IPv4/IPv6 TCP socket of this machine."""
    out = []
    for name in ('/proc/net/tcp', '/proc/net/tcp6'):
        try:
            with open(name) as f:
                lines = f.read().split('\n')[1:]
        except OSError:
            continue
        for line in lines:
            cols = line.split()
            if len(cols) > 3:
                out.append((int(cols[1].rsplit(':', 1)[1], 16), cols[3]))
    return out


def exited(process, seconds):
    """Whether `process` exits within `seconds` (waited on, not slept through)."""
    try:
        process.wait(seconds)
        return True
    except subprocess.TimeoutExpired:
        return False


def listening(port):
    return (port, '0A') in tcp_sockets()


def ports_free(base):
    for port in range(base, base + 4):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            s.bind(('127.0.0.1', port))
        except OSError:
            return False
        finally:
            s.close()
    return True


def pick_base():
    for _ in range(200):
        base = random.randrange(20000, 60000, 4)
        if ports_free(base):
            return base
    fail('no four free TCP ports found')


class Launcher:
    def __init__(self, args):
        self.args = args
        self.rootcanal = None
        self.bridges = {}  # link -> Popen
        self.stopping = False
        self.log = open(args.log, 'ab') if args.log else tempfile.TemporaryFile()

    def log_tail(self):
        self.log.flush()
        try:
            self.log.seek(0, os.SEEK_END)
            size = self.log.tell()
            self.log.seek(max(0, size - 2000))
            text = self.log.read().decode(errors='replace')
            self.log.seek(0, os.SEEK_END)
        except (OSError, ValueError):
            return ''
        lines = [ln for ln in text.split('\n') if ln.strip()]
        return ' | '.join(lines[-3:])

    def start_rootcanal(self, base):
        bindir = binary_dir()
        libs = os.path.join(loader_dir(), LIBS)
        command = [os.path.join(libs, 'ld-linux-x86-64.so.2'), '--library-path', libs + ':' + bindir,
                   os.path.join(bindir, 'rootcanal'), '-test_port', str(base), '-hci_port', str(base + 1),
                   '-link_port', str(base + 2), '-link_ble_port', str(base + 3)]
        self.rootcanal = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log,
                                          preexec_fn=die_with_parent)
        # Linux tells no one when a socket starts listening, so the port is looked at again
        # each time RootCanal has not exited within 20 ms: the wait is on the process, and the
        # deadline bounds it.
        deadline = time.monotonic() + self.args.timeout
        while time.monotonic() < deadline:
            if listening(base + 1):
                return None
            if exited(self.rootcanal, 0.02):
                return 'RootCanal exited with status %d before its HCI port %d listened (%s)' % (
                    self.rootcanal.returncode, base + 1, self.log_tail())
        return 'RootCanal\'s HCI port %d did not listen within %g s (%s)' % (base + 1, self.args.timeout, self.log_tail())

    def start_bridge(self, link, base):
        if os.path.lexists(link):
            os.unlink(link)
        # socat -d -d says "starting data transfer loop" once both ends are open (the pty made,
        # the TCP connection up): that line is the event waited for, on its stderr, until the
        # deadline; then the rest of its stderr goes to the log.
        bridge = subprocess.Popen(['socat', '-d', '-d', 'PTY,link=%s,raw,echo=0' % link, 'TCP:127.0.0.1:%d' % (base + 1)],
                                  stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.PIPE, preexec_fn=die_with_parent)
        self.bridges[link] = bridge
        deadline = time.monotonic() + self.args.timeout
        text = b''
        while time.monotonic() < deadline:
            ready, _, _ = select.select([bridge.stderr], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                break
            chunk = os.read(bridge.stderr.fileno(), 4096)
            self.log.write(chunk)
            self.log.flush()
            if not chunk:
                bridge.wait()
                return 'the bridge of %s (socat) exited with status %d (%s)' % (link, bridge.returncode, self.log_tail())
            text += chunk
            if b'starting data transfer loop' in text:
                threading.Thread(target=self.copy_to_log, args=(bridge.stderr,), daemon=True).start()
                return None
        return 'the bridge of %s to port %d was not connected within %g s' % (link, base + 1, self.args.timeout)

    def copy_to_log(self, pipe):
        """A bridge's stderr after it is up, into the log, so socat never blocks on a full pipe."""
        for chunk in iter(lambda: os.read(pipe.fileno(), 4096), b''):
            self.log.write(chunk)
            self.log.flush()

    def stop(self):
        children = list(self.bridges.values()) + ([self.rootcanal] if self.rootcanal else [])
        for child in children:
            if child.poll() is None:
                child.terminate()
        deadline = time.monotonic() + 3
        for child in children:
            try:
                child.wait(max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
        for link in self.bridges:
            if os.path.islink(link):
                os.unlink(link)

    def run(self):
        args = self.args
        for attempt in range(1 if args.port_base else 5):
            base = args.port_base or pick_base()
            error = self.start_rootcanal(base)
            if error is None:
                break
            self.stop()
        if error:
            fail(error)
        for link in args.pty:
            error = self.start_bridge(link, base)
            if error:
                self.stop()
                fail(error)
        print('ready port_base=%d test_port=%d hci_port=%d link_port=%d link_ble_port=%d ptys=%s' % (
            base, base, base + 1, base + 2, base + 3, ','.join(args.pty)), flush=True)
        while not self.stopping:
            # stdin's end is the caller's word that it is done; every 0.2 s without it the
            # children are looked at.
            ready, _, _ = select.select([sys.stdin], [], [], 0.2)
            if ready and not os.read(sys.stdin.fileno(), 4096):
                break
            if self.rootcanal.poll() is not None:
                sys.stderr.write('rootcanal: RootCanal exited by itself with status %d (%s)\n' % (
                    self.rootcanal.returncode, self.log_tail()))
                self.stop()
                sys.exit(1)
            for link, bridge in list(self.bridges.items()):
                if bridge.poll() is not None and not self.stopping:
                    if args.no_restart:
                        sys.stderr.write('rootcanal: the bridge of %s ended (status %d)\n' % (link, bridge.returncode))
                        del self.bridges[link]
                        continue
                    error = self.start_bridge(link, base)
                    sys.stderr.write('rootcanal: the bridge of %s ended; %s\n' % (
                        link, 'started again (a new controller)' if error is None else error))
                    sys.stderr.flush()
        self.stop()


def main():
    parser = argparse.ArgumentParser(description='RootCanal for a test, with pty bridges')
    parser.add_argument('--port-base', type=int, default=0, help='test port B, hci B+1, link B+2, link_ble B+3 (default: a free one)')
    parser.add_argument('--pty', action='append', default=[], metavar='LINK', help='a pty bridged to the HCI port (repeatable)')
    parser.add_argument('--log', help="append RootCanal's and socat's output to FILE")
    parser.add_argument('--timeout', type=float, default=10, help='how long to wait for each port (default 10 s)')
    parser.add_argument('--no-restart', action='store_true', help='do not start a bridge again when its host closed the pty')
    parser.add_argument('--check', action='store_true', help='only say whether RootCanal can run here (exit 0) or why not (exit 3)')
    args = parser.parse_args()
    why = missing()
    if args.check:
        print(why or 'ok')
        sys.exit(3 if why else 0)
    if why:
        fail(why + ' (scripts/ensure-deps installs RootCanal)', 3)
    launcher = Launcher(args)

    def on_signal(number, frame):
        launcher.stopping = True
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGHUP, on_signal)
    try:
        launcher.run()
    finally:
        launcher.stop()


if __name__ == '__main__':
    main()
