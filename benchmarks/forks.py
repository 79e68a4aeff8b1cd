"""Processes a benchmark starts (its bot processes, its servers), forked from one that has done nothing but
the benchmark's imports, instead of each a new interpreter importing the bot again (half a second of CPU
each).

``Forks(run)`` is made first thing in the benchmark's ``main()``: it forks a process that waits for
requests. ``start(what, fds)`` has it fork a child that calls ``run(what, fds)`` (``what`` pickled, ``fds``
the child's copies of those file descriptors, sent over a Unix socket; the caller closes its own) and
gives the child's pid; the child ends when ``run`` returns (status 0) or raises (its traceback on
stderr, status 1). ``close()`` lets the forking process end once its children have, and waits for it, so
its CPU and its children's count as the benchmark's children's. No event loop ever runs in the forking
process, and it holds no store, club or connection: each child begins as a bot process begins once its
imports are done, and everything it measures is its own work.
"""

from __future__ import annotations

import os
import pickle
import socket
import sys
import traceback
from collections.abc import Callable
from typing import Any


class Forks:
    def __init__(self, run: Callable[[Any, list[int]], None]) -> None:
        self._requests, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        sys.stdout.flush()  # nothing of this process's left in a buffer a fork would write again
        sys.stderr.flush()
        self._pid = os.fork()
        if self._pid == 0:
            self._requests.close()
            _serve(theirs, run)
        theirs.close()

    def start(self, what: Any, fds: list[int]) -> int:
        socket.send_fds(self._requests, [pickle.dumps(what)], fds)
        return int(self._requests.recv(64))

    def close(self) -> None:
        self._requests.close()
        os.waitpid(self._pid, 0)


def _serve(requests: socket.socket, run: Callable[[Any, list[int]], None]) -> None:
    """The forking process's life: a child for each request until the benchmark closes its end; then its
    children waited for."""
    while True:
        message, fds, _, _ = socket.recv_fds(requests, 1 << 16, 8)
        if not message:
            break
        pid = os.fork()
        if pid == 0:
            requests.close()
            code = 0
            try:
                run(pickle.loads(message), fds)
            except BaseException:
                traceback.print_exc()
                code = 1
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
        for fd in fds:
            os.close(fd)
        requests.send(str(pid).encode())
    while True:
        try:
            os.wait()
        except ChildProcessError:
            break
    os._exit(0)
