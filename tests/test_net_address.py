"""The address the join link names: the LAN's, even on a network with no default route."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from companion import net

SCRIPT = """
set -e
ip link set lo up
ip link add table0 type veth peer name phone0
ip link set table0 up
ip link set phone0 up
{address}
exec {python} -c 'from companion import net; print(net.lan_address())'
"""


def in_namespace(address: str) -> str:
    """companion.net.lan_address() in a network namespace of its own: a loopback and one
    interface, `address` on it (shell lines), and no route to the world."""
    if os.geteuid() != 0 or shutil.which("unshare") is None or shutil.which("ip") is None:
        pytest.skip("needs root, unshare and ip (a network namespace of its own)")
    result = subprocess.run(
        ["unshare", "--net", "sh", "-c", SCRIPT.format(address=address, python=sys.executable)],
        capture_output=True, text=True, timeout=60, check=False,
        cwd=os.path.dirname(os.path.dirname(os.path.abspath(net.__file__))))
    if result.returncode != 0 and "Operation not permitted" in result.stderr:
        pytest.skip(f"no network namespace here: {result.stderr.strip()}")
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_a_network_without_a_default_route_still_names_its_address() -> None:
    """The table's own hotspot (and QEMU's isolated network) has no default route: the QR
    code named 127.0.0.1, which no phone reaches."""
    assert in_namespace("ip addr add 10.42.0.1/24 dev table0") == "10.42.0.1"


def test_a_default_route_picks_its_interface() -> None:
    assert in_namespace("ip addr add 10.42.0.1/24 dev table0\n"
                        "ip route add default via 10.42.0.254 dev table0") == "10.42.0.1"


def test_no_address_at_all_is_the_loopback() -> None:
    assert in_namespace("") == "127.0.0.1"
