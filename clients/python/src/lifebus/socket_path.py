"""Where the broker's socket is, and whether it may be trusted (Protocol/README.md §1), before a byte is sent."""

from __future__ import annotations

import os
import pwd
import socket
import stat
import struct

from .errors import BrokerUnreachable, UntrustedSocket


def resolve(explicit: str | os.PathLike[str] | None = None) -> str:
    """The socket path: ``explicit``, else ``$LIFEBUS_SOCKET``, else ``$XDG_RUNTIME_DIR/lifebus.sock``, else
    ``/tmp/lifebus-UID/lifebus.sock`` (``$TMPDIR`` in place of ``/tmp`` when set): the first non-empty one."""
    if explicit:
        return os.fspath(explicit)
    for candidate in (os.environ.get("LIFEBUS_SOCKET"), _runtime_socket()):
        if candidate:
            return candidate
    return os.path.join(_private_folder(), "lifebus.sock")


def connect(path: str, timeout: float | None = None) -> socket.socket:
    """A connected socket to the broker at ``path``, after the trust checks: the private folder (when the path is
    in it) is a real directory of this user with no group or other bits, and the listener runs as this user or
    root (``SO_PEERCRED``). Raises ``BrokerUnreachable`` or ``UntrustedSocket``."""
    folder = _private_folder()
    if os.path.dirname(path) == folder:
        _check_private_folder(folder)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    try:
        sock.connect(path)
    except OSError as error:
        sock.close()
        raise BrokerUnreachable(f"no broker at {path}: {error.strerror or error}") from error
    try:
        check_listener(sock, path)
    except UntrustedSocket:
        sock.close()
        raise
    sock.settimeout(None)
    return sock


def check_listener(sock: socket.socket, path: str) -> None:
    """Refuses a listener that runs as neither this user nor root (missing credentials are refused too)."""
    try:
        credentials = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
        _, uid, _ = struct.unpack("3i", credentials)
    except OSError as error:
        raise UntrustedSocket(f"refusing the socket {path}: its listener's credentials cannot be read") from error
    if uid not in (os.getuid(), 0):
        raise UntrustedSocket(
            f"refusing the socket {path}: its listener runs as uid {uid} ({_user(uid)}), not as uid "
            f"{os.getuid()} ({_user(os.getuid())}) or root"
        )


def _runtime_socket() -> str | None:
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    return os.path.join(runtime, "lifebus.sock") if runtime else None


def _private_folder() -> str:
    return os.path.join(os.environ.get("TMPDIR") or "/tmp", f"lifebus-{os.getuid()}")


def _check_private_folder(folder: str) -> None:
    try:
        info = os.lstat(folder)
    except FileNotFoundError as error:
        raise BrokerUnreachable(f"no broker at {folder}/lifebus.sock: the folder does not exist") from error
    uid = os.getuid()
    if not stat.S_ISDIR(info.st_mode):
        raise UntrustedSocket(f"refusing the socket in {folder}: it is not a real directory")
    if info.st_uid != uid:
        raise UntrustedSocket(
            f"refusing the socket in {folder}: its folder belongs to uid {info.st_uid} ({_user(info.st_uid)}), "
            f"not to uid {uid} ({_user(uid)})"
        )
    if info.st_mode & 0o077:
        raise UntrustedSocket(f"refusing the socket in {folder}: its folder has mode {stat.S_IMODE(info.st_mode):o}")


def _user(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return "unknown"
