"""API keys: read-only and admin keys from the config, checked in constant time; and the
rule that a server without keys only listens on the loopback interface."""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
from dataclasses import dataclass, field
from enum import Enum

from zhiku.access import Caller, parse_key_groups
from zhiku.config import Config
from zhiku.errors import ZhikuError


class Access(str, Enum):
    """What a caller may do."""

    NONE = "none"
    READ = "read"
    ADMIN = "admin"


def _split(secret) -> tuple[str, ...]:
    return tuple(k.strip() for k in secret.get_secret_value().split(",") if k.strip())


@dataclass(frozen=True)
class Keys:
    """The configured keys. With none configured every caller is admin (loopback only).

    ``groups`` holds the groups of each read key (``KEY:hr+finance`` in ``api_keys``);
    admin keys see every document. ``local`` is the key of this server run that the CLI
    of the same home reads from the owner-only discovery file: a read key that sees every
    document, as the CLI does.
    """

    read: tuple[str, ...]
    admin: tuple[str, ...]
    groups: dict[str, tuple[str, ...]] = field(default_factory=dict)
    local: str = ""

    @classmethod
    def from_config(cls, cfg: Config) -> Keys:
        """Keys from ``api_keys`` (``KEY`` or ``KEY:group+group``) and ``admin_keys``.

        Raises:
            ZhikuError: a bad group name.
        """
        read = dict(parse_key_groups(k) for k in _split(cfg.api_keys))
        admin = tuple(parse_key_groups(k)[0] for k in _split(cfg.admin_keys))
        return cls(tuple(read), admin, read)

    @property
    def open(self) -> bool:
        """No keys configured: no authentication."""
        return not self.read and not self.admin

    def __repr__(self) -> str:  # never print keys
        return f"Keys(read={len(self.read)}, admin={len(self.admin)})"

    def access(self, presented: str | None) -> Access:
        """What the presented key allows (every key is compared, in constant time)."""
        if self.open:
            return Access.ADMIN
        if not presented:
            return Access.NONE
        got = presented.encode()
        admin = any(hmac.compare_digest(got, k.encode()) for k in self.admin)
        read = any(hmac.compare_digest(got, k.encode()) for k in self.read)
        read = read or self._is_local(presented)
        return Access.ADMIN if admin else Access.READ if read else Access.NONE

    def _is_local(self, presented: str) -> bool:
        return bool(self.local) and hmac.compare_digest(presented.encode(), self.local.encode())

    def caller(self, presented: str | None) -> tuple[Access, Caller]:
        """What the presented key allows and who it is: its groups (None for admin keys
        and the no-key mode: every document) and an owner id (a hash of the key) for
        sessions."""
        got = self.access(presented)
        if got is Access.NONE:
            return got, Caller((), "")
        owner = hashlib.sha256(presented.encode()).hexdigest()[:24] if presented and not self.open else ""
        if got is Access.ADMIN or self._is_local(presented):
            return got, Caller(None, owner)
        groups = next((g for k, g in self.groups.items()
                       if hmac.compare_digest(presented.encode(), k.encode())), ())
        return got, Caller(groups, owner)


def presented_key(headers) -> str | None:
    """The key from ``X-API-Key`` or ``Authorization: Bearer KEY``."""
    key = headers.get("x-api-key")
    if key:
        return key.strip()
    auth = headers.get("authorization") or ""
    if auth.lower().startswith("bearer "):
        return auth[7:].strip()
    return None


def is_loopback(host: str) -> bool:
    """Whether ``host`` names only this machine (127.0.0.0/8, ::1, localhost)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_bind(host: str, keys: Keys) -> str | None:
    """Refuse to listen beyond this machine without keys.

    Returns:
        A warning to print when the server runs without keys (on loopback), else None.

    Raises:
        ZhikuError: ``host`` is not a loopback address and no key is configured.
    """
    if not keys.open:
        return None
    if not is_loopback(host):
        raise ZhikuError(f"refusing to listen on {host} without API keys; set ZHIKU_API_KEYS and "
                         "ZHIKU_ADMIN_KEYS (or api_keys/admin_keys in the config), or bind 127.0.0.1")
    return (f"no API keys configured: anyone on this machine may read and change the knowledge "
            f"base; listening on {host} only (set ZHIKU_ADMIN_KEYS to require keys)")
