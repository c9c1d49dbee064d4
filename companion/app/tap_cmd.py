"""`companion tap TAG`: tap an RFID tag into a running companion that uses the fake reader.

The fake reader listens on DATA_DIR/tap.sock; this connects and sends the tag. With
`--serial PATH` it instead writes the RDM6300 frame for the tag to a serial device or pty
(e.g. one end of `socat -d -d pty,raw,echo=0 pty,raw,echo=0` whose other end is the
companion's `--reader rdm6300:...`).
"""

from __future__ import annotations

import argparse
import os
import stat
import sys
from pathlib import Path

from hardware.readers.fake import normalize_tag, send_tap, socket_path
from hardware.readers.rdm6300 import encode_frame


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion tap", description="Tap an RFID tag into a running companion."
    )
    parser.add_argument("tag", help="the tag id, ASCII letters and digits, e.g. 0A1B2C3D4E")
    parser.add_argument("--data-dir", type=Path, help="the companion's data directory")
    parser.add_argument(
        "--serial", metavar="PATH", help="write an RDM6300 frame to this serial device instead"
    )
    return parser


def main(argv: list[str]) -> int:
    """Send the tap; 0 on success, 1 when no companion takes it, 2 for a usage error."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    tag = normalize_tag(args.tag) if args.tag.isascii() else None
    if tag is None or tag.startswith("-"):
        print(f"companion tap: {args.tag!r} is not a tag id", file=sys.stderr)
        return 2
    if args.serial:
        return _tap_serial(args.serial, tag)
    from companion.paths import default_data_dir, usable_data_dir

    data_dir = usable_data_dir(args.data_dir if args.data_dir is not None
                               else default_data_dir())
    try:
        answer = send_tap(data_dir, tag)
    except OSError as exc:
        print(
            f"companion tap: no companion with the fake reader is running "
            f"(nothing listens on {socket_path(data_dir)}: {exc.strerror or exc}).\n"
            f"Start one with the reader set to 'fake', or pass --data-dir.",
            file=sys.stderr,
        )
        return 1
    if answer != "ok":
        print(f"companion tap: the companion answered {answer!r}", file=sys.stderr)
        return 1
    print(f"tapped {tag}")
    return 0


def _tap_serial(path: str, tag: str) -> int:
    try:
        frame = encode_frame(tag)
    except ValueError:
        print("companion tap: an RDM6300 tag is 10 hex characters", file=sys.stderr)
        return 2
    try:
        is_device = stat.S_ISCHR(os.stat(path).st_mode)
    except OSError as exc:
        print(f"companion tap: cannot open {path}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    if not is_device:  # a regular file would be overwritten and success reported
        print(f"companion tap: {path} is not a serial device or pty", file=sys.stderr)
        return 2
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NOCTTY)
    except OSError as exc:
        print(f"companion tap: cannot open {path}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    try:
        os.write(fd, frame * 3)  # a card lying on the reader repeats its frame
    finally:
        os.close(fd)
    print(f"tapped {tag} on {path}")
    return 0
