#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""relay.py: the command channel of a guest host of the testbed (guest.sh).

A guest (user-mode-linux, QEMU) is its own kernel: `ip netns exec` cannot
start a process in it. Its init starts this program as a server on the
guest's testbed address; the agent (agent.sh) and `testbed.sh exec` run it as
a client, as ssh would run a remote command:

  relay.py serve ADDR PORT TOKENFILE   in the guest: accept, run, stream
  relay.py run ADDR PORT TOKENFILE CMDLINE
                                       on the host: run CMDLINE (sh -c) in the
                                       guest, with this process's stdin,
                                       stdout and stderr; exit with its status
  relay.py ping ADDR PORT TOKENFILE TIMEOUT
                                       exit 0 once the server answers (bounded)

Protocol (TCP, one command a connection): the client sends the line
"P2PB-RELAY1 TOKEN\\n", then frames; the server answers with frames. A frame
is one type byte, a 4-byte big-endian length and the data:
  client: c = the command line (first), i = stdin bytes, e = stdin closed
  server: o = stdout bytes, r = stderr bytes, x = exit status (4-byte signed)
The token (a file both sides read) keeps other processes on the testbed's
links from running commands. When the connection drops, the server kills the
command's process group: a killed client leaves nothing running.
Errors: "relay.py: error: ..." on stderr and exit status 255 (as ssh's).
"""
import os
import select
import signal
import socket
import struct
import subprocess
import sys
import time

MAGIC = b"P2PB-RELAY1 "
MAX_FRAME = 1 << 20
PROG = "relay.py"


def fail(msg):
    sys.stderr.write(f"{PROG}: error: {msg}\n")
    sys.exit(255)


def read_token(path):
    try:
        with open(path, "rb") as f:
            tok = f.read().strip()
    except OSError as e:
        fail(f"cannot read token file {path}: {e.strerror}")
    if not tok or len(tok) > 128 or not tok.isalnum():
        fail(f"token file {path} does not hold 1..128 letters and digits")
    return tok


def send_frame(sock, kind, data):
    sock.sendall(kind + struct.pack(">I", len(data)) + data)


def recv_exact(sock, n):
    buf = b""
    while len(buf) < n:
        part = sock.recv(n - len(buf))
        if not part:
            return None
        buf += part
    return buf


def recv_frame(sock):
    head = recv_exact(sock, 5)
    if head is None:
        return None, None
    kind, n = head[:1], struct.unpack(">I", head[1:])[0]
    if n > MAX_FRAME:
        return None, None
    data = recv_exact(sock, n) if n else b""
    return (kind, data) if data is not None else (None, None)


def read_line(sock, limit=256):
    line = b""
    while not line.endswith(b"\n") and len(line) < limit:
        c = sock.recv(1)
        if not c:
            return None
        line += c
    return line


# ---------------------------------------------------------------- server


def pump_child(conn, child):
    """Streams the child's stdout/stderr to conn and conn's stdin frames to
    the child until the child's output ends; returns False if conn dropped."""
    outs = {child.stdout.fileno(): b"o", child.stderr.fileno(): b"r"}
    stdin_open = True
    while outs:
        ready, _, _ = select.select(list(outs) + [conn], [], [])
        for fd in ready:
            if fd is conn:
                kind, data = recv_frame(conn)
                if kind is None:
                    return False
                if kind == b"i" and stdin_open:
                    try:
                        child.stdin.write(data)
                        child.stdin.flush()
                    except OSError:
                        stdin_open = False
                elif kind == b"e" and stdin_open:
                    child.stdin.close()
                    stdin_open = False
                continue
            data = os.read(fd, 65536)
            if data:
                send_frame(conn, outs[fd], data)
            else:
                del outs[fd]
    return True


def serve_one(conn, token):
    line = read_line(conn)
    if line is None or line.rstrip(b"\n") != MAGIC + token:
        return
    kind, cmd = recv_frame(conn)
    if kind != b"c":
        return
    child = subprocess.Popen(["/bin/sh", "-c", cmd.decode("utf-8", "replace")],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, start_new_session=True)
    alive = pump_child(conn, child)
    if not alive:
        try:
            os.killpg(child.pid, signal.SIGTERM)
            time.sleep(1)
            os.killpg(child.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    rc = child.wait()
    if alive:
        status = rc if rc >= 0 else 128 - rc
        send_frame(conn, b"x", struct.pack(">i", status))


def serve(addr, port, token_file):
    token = read_token(token_file)
    lsock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    lsock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    lsock.bind((addr, port))
    lsock.listen(64)
    lsock.settimeout(1.0)  # wake up to reap: as a guest's PID 1 it reaps orphans too
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    while True:
        try:
            conn, _ = lsock.accept()
        except socket.timeout:
            reap()
            continue
        conn.settimeout(None)
        if os.fork() == 0:  # one process a command: commands run side by side
            lsock.close()
            try:
                conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                serve_one(conn, token)
            finally:
                os._exit(0)
        conn.close()
        reap()


def reap():
    """Collects every finished child (and, as PID 1, every orphan)."""
    try:
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass
    except ChildProcessError:
        pass


# ---------------------------------------------------------------- client


def connect(addr, port, token, timeout):
    sock = socket.create_connection((addr, port), timeout=timeout)
    sock.settimeout(None)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.sendall(MAGIC + token + b"\n")
    return sock


def client_loop(sock):
    """Forwards stdin to the server and its frames to stdout/stderr; returns
    the command's exit status, 255 when the connection drops first."""
    stdin_fd = sys.stdin.fileno()
    watch = [sock, stdin_fd]
    while True:
        ready, _, _ = select.select(watch, [], [])
        if stdin_fd in ready:
            data = os.read(stdin_fd, 65536)
            send_frame(sock, b"i" if data else b"e", data)
            if not data:
                watch = [sock]
        if sock in ready:
            kind, data = recv_frame(sock)
            if kind is None:
                sys.stderr.write(f"{PROG}: error: connection to the guest closed\n")
                return 255
            if kind == b"x":
                return struct.unpack(">i", data)[0]
            os.write(1 if kind == b"o" else 2, data)


def run(addr, port, token_file, cmdline):
    token = read_token(token_file)
    try:
        sock = connect(addr, port, token, 10)
    except OSError as e:
        fail(f"cannot reach the guest at {addr}:{port}: {e.strerror or e}")
    send_frame(sock, b"c", cmdline.encode())
    sys.exit(client_loop(sock))


def ping(addr, port, token_file, timeout):
    token = read_token(token_file)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            sock = connect(addr, port, token, 2)
            send_frame(sock, b"c", b"true")
            send_frame(sock, b"e", b"")
            kind, data = recv_frame(sock)
            if kind == b"x" and struct.unpack(">i", data)[0] == 0:
                return 0
        except OSError:
            pass
        time.sleep(0.5)
    fail(f"the guest at {addr}:{port} did not answer within {timeout:g}s")


def main(argv):
    usage = __doc__.split("\n\n")[1]
    if len(argv) >= 2 and argv[1] in ("-h", "--help"):
        print(usage)
        return 0
    verbs = {"serve": 5, "run": 6, "ping": 6}
    if len(argv) < 2 or verbs.get(argv[1]) != len(argv):
        sys.stderr.write(usage + "\n")
        return 2
    addr = argv[2]
    try:
        port = int(argv[3])
        if not 1 <= port <= 65535:
            raise ValueError
    except ValueError:
        fail(f"bad port '{argv[3]}' (1..65535)")
    if argv[1] == "serve":
        serve(addr, port, argv[4])
    elif argv[1] == "run":
        run(addr, port, argv[4], argv[5])
    try:
        timeout = float(argv[5])
    except ValueError:
        fail(f"bad timeout '{argv[5]}' (seconds)")
    return ping(addr, port, argv[4], timeout)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
