"""Net category: IPv4/IPv6 addresses and networks, MAC addresses, URL parts."""

from __future__ import annotations

import ipaddress
import re
import urllib.parse
from typing import Any

from workbench.utilities._schema import BadArgument, data, define, ex, text_form

CIDR = data("cidr", "string", "the network in CIDR form", "сеть в записи CIDR")
_URL = re.compile(r"(?<![\w.+-])[A-Za-z][A-Za-z0-9+.-]*://\S+")
_URL_TAIL = ".,;:!?»\"'”)"


@text_form("url", within=True)
def url_spans(text: str) -> list[tuple[int, int]]:
    """The first URL written with its scheme in ``text``.

    It runs up to the next space, less the punctuation a sentence puts after it («…#signup — not
    the old /promo page» gives the link).
    """
    found = _URL.search(text)
    if found is None:
        return []
    end = found.start() + len(found[0].rstrip(_URL_TAIL))
    return [(found.start(), end)]


def _network(value: str) -> ipaddress.IPv4Network | ipaddress.IPv6Network:
    try:
        return ipaddress.ip_network(value.strip(), strict=False)
    except ValueError:
        raise BadArgument("cidr", "a network such as 192.168.1.0/24") from None


def _address(value: str, argument: str = "ip") -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    try:
        return ipaddress.ip_address(value.strip())
    except ValueError:
        raise BadArgument(argument, "an IPv4 or IPv6 address") from None


@define(
    "net.cidr_info",
    en="network, broadcast, mask, host range and size of a CIDR network",
    ru="сеть, широковещательный адрес, маска, диапазон узлов и размер сети CIDR",
    args=[CIDR],
    result="object",
    examples=[
        ex(
            {"cidr": "192.168.1.0/24"},
            {
                "network": "192.168.1.0",
                "broadcast": "192.168.1.255",
                "netmask": "255.255.255.0",
                "prefix": 24,
                "addresses": 256,
                "hosts": 254,
                "first_host": "192.168.1.1",
                "last_host": "192.168.1.254",
            },
        ),
        ex(
            {"cidr": "10.0.0.5/30"},
            {
                "network": "10.0.0.4",
                "broadcast": "10.0.0.7",
                "netmask": "255.255.255.252",
                "prefix": 30,
                "addresses": 4,
                "hosts": 2,
                "first_host": "10.0.0.5",
                "last_host": "10.0.0.6",
            },
        ),
    ],
)
def cidr_info(cidr: str) -> dict[str, Any]:
    """Host bits in the input are cleared; /31 and /32 count every address as a host (RFC 3021)."""
    net = _network(cidr)
    size = net.num_addresses
    if size <= 2:
        first, last, hosts = net.network_address, net.broadcast_address, size
    else:
        first, last, hosts = net.network_address + 1, net.broadcast_address - 1, size - 2
    return {
        "network": str(net.network_address),
        "broadcast": str(net.broadcast_address),
        "netmask": str(net.netmask),
        "prefix": net.prefixlen,
        "addresses": size,
        "hosts": hosts,
        "first_host": str(first),
        "last_host": str(last),
    }


@define(
    "net.ip_in_network",
    en="whether an IP address belongs to a CIDR network",
    ru="входит ли IP-адрес в сеть CIDR",
    args=[data("ip", "string", "the IP address", "IP-адрес"), CIDR],
    result="boolean",
    examples=[
        ex({"ip": "10.1.2.3", "cidr": "10.0.0.0/8"}, True),
        ex({"ip": "192.168.2.1", "cidr": "192.168.1.0/24"}, False),
    ],
)
def ip_in_network(ip: str, cidr: str) -> bool:
    """Addresses of another IP version are never members."""
    addr, net = _address(ip), _network(cidr)
    return addr.version == net.version and addr in net


@define(
    "net.ip_to_int",
    en="an IP address as an integer",
    ru="IP-адрес как целое число",
    args=[data("ip", "string", "the IP address", "IP-адрес")],
    result="integer",
    examples=[ex({"ip": "192.168.1.1"}, 3232235777), ex({"ip": "::1"}, 1)],
)
def ip_to_int(ip: str) -> int:
    """Big-endian value of the address bytes."""
    return int(_address(ip))


@define(
    "net.int_to_ip",
    en="an integer as an IP address (IPv4 below 2^32)",
    ru="целое число как IP-адрес (IPv4, если меньше 2^32)",
    args=[data("n", "integer", "the integer", "целое число")],
    examples=[ex({"n": 3232235777}, "192.168.1.1"), ex({"n": 4294967296}, "::1:0:0")],
)
def int_to_ip(n: int) -> str:
    """IPv4 for 0..2^32-1, IPv6 up to 2^128-1."""
    if not 0 <= n < 2**128:
        raise BadArgument("n", "an integer from 0 to 2^128-1")
    return str(ipaddress.IPv4Address(n) if n < 2**32 else ipaddress.IPv6Address(n))


@define(
    "net.mac_normalize",
    en="a MAC address in lower-case colon form",
    ru="MAC-адрес в виде строчных пар через двоеточие",
    args=[data("mac", "string", "the MAC address", "MAC-адрес")],
    examples=[
        ex({"mac": "00-1A-2b-3C-4d-5E"}, "00:1a:2b:3c:4d:5e"),
        ex({"mac": "001a.2b3c.4d5e"}, "00:1a:2b:3c:4d:5e"),
    ],
)
def mac_normalize(mac: str) -> str:
    """Accepts colon, dash, dot (Cisco) or no separators; 12 hex digits."""
    digits = re.sub(r"[\s:.\-]", "", mac).lower()
    if re.fullmatch(r"[0-9a-f]{12}", digits) is None:
        raise BadArgument("mac", "12 hex digits, optionally separated by : - or .")
    return ":".join(digits[i : i + 2] for i in range(0, 12, 2))


@define(
    "net.parse_url",
    en="the parts of a URL: scheme, user, host, port, path, query, fragment",
    ru="части URL: схема, пользователь, хост, порт, путь, параметры, фрагмент",
    args=[data("url", "string", "the URL", "URL", form="url")],
    result="object",
    examples=[
        ex(
            {"url": "https://user@example.com:8080/path/a?x=1&y=2&x=3#frag"},
            {
                "scheme": "https",
                "username": "user",
                "password": None,
                "host": "example.com",
                "port": 8080,
                "path": "/path/a",
                "query": {"x": ["1", "3"], "y": ["2"]},
                "fragment": "frag",
            },
        ),
    ],
)
def parse_url(url: str) -> dict[str, Any]:
    """RFC 3986 split; query values are lists in order of appearance (percent-decoded)."""
    try:
        parts = urllib.parse.urlsplit(url.strip())
        port = parts.port
    except ValueError:
        raise BadArgument("url", "a URL with a valid port") from None
    return {
        "scheme": parts.scheme,
        "username": parts.username,
        "password": parts.password,
        "host": parts.hostname,
        "port": port,
        "path": parts.path,
        "query": urllib.parse.parse_qs(parts.query, keep_blank_values=True),
        "fragment": parts.fragment,
    }


def _ipv6(ip: str) -> ipaddress.IPv6Address:
    addr = _address(ip)
    if not isinstance(addr, ipaddress.IPv6Address):
        raise BadArgument("ip", "an IPv6 address")
    return addr


@define(
    "net.ipv6_expand",
    en="the full eight-group form of an IPv6 address",
    ru="полная запись IPv6-адреса из восьми групп",
    args=[data("ip", "string", "the IPv6 address", "IPv6-адрес")],
    examples=[ex({"ip": "2001:db8::1"}, "2001:0db8:0000:0000:0000:0000:0000:0001")],
)
def ipv6_expand(ip: str) -> str:
    """Every group written with four hex digits."""
    return _ipv6(ip).exploded


@define(
    "net.ipv6_compress",
    en="the shortest form of an IPv6 address (RFC 5952)",
    ru="кратчайшая запись IPv6-адреса (RFC 5952)",
    args=[data("ip", "string", "the IPv6 address", "IPv6-адрес")],
    examples=[ex({"ip": "2001:0DB8:0000:0000:0000:ff00:0042:8329"}, "2001:db8::ff00:42:8329")],
)
def ipv6_compress(ip: str) -> str:
    """Lower case, leading zeros dropped, the longest zero run as ``::``."""
    return _ipv6(ip).compressed


@define(
    "net.prefix_to_netmask",
    en="the dotted IPv4 netmask of a prefix length",
    ru="маска IPv4 для длины префикса",
    args=[data("prefix", "integer", "the prefix length 0-32", "длина префикса 0-32")],
    examples=[ex({"prefix": 20}, "255.255.240.0")],
)
def prefix_to_netmask(prefix: int) -> str:
    """``prefix`` leading one-bits."""
    if not 0 <= prefix <= 32:
        raise BadArgument("prefix", "an integer from 0 to 32")
    return str(ipaddress.IPv4Network(f"0.0.0.0/{prefix}").netmask)
