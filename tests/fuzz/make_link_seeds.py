#!/usr/bin/env python3
"""Writes the seed corpus of fuzz_link (tests/fuzz/corpus/link/; docs/fuzzing.md).

Frames follow docs/link-protocol.md (header, payload, CRC-32 of zlib, COBS,
0x00). Signed frames need SipHash, which the harness computes itself in its
"sealed" and "session" modes, so their seeds carry only what the harness
reads (fuzz_link.cpp says the layout of each mode).

    tests/fuzz/make_link_seeds.py [OUTPUT_DIR]
"""
import os
import struct
import sys
import zlib

MAGIC = b"HL"
VERSION = 4  # arrays sized to the counts (docs/link-protocol.md)
SENSORS, COMMAND, REFERENCE, HELLO = 1, 2, 3, 4
SIGNED = 0x80


def sensors_payload(joints=6, rotors=6, bits=0):
    p = struct.pack("<dIIII", 1.25, 7, joints, rotors, bits)
    values = [0.0, 0.0, 1.0] + [1.0, 0.0, 0.0, 0.0] + [0.1, 0.0, 0.0] + [0.0, 0.0, 0.2]
    values += [0.05 * k for k in range(joints)] * 4 + [900.0] * rotors
    return p + struct.pack("<%dd" % len(values), *values)


def command_payload(joints=6, rotors=6, mode=1, status=0, answered=7, bits=0):
    p = struct.pack("<dIIIIiI", 1.25, answered, joints, rotors, mode, status, bits)
    return p + struct.pack("<%dd" % (rotors + joints), *([910.0] * rotors + [0.3] * joints))


def reference_payload(joints=6):
    p = struct.pack("<dI", 1.25, joints)
    values = [0.0, 0.0, 1.0] + [0.0] * 12 + [1.0, 0.0, 0.0, 0.0] + [0.0] * 12
    values += [0.1] * joints + [0.0] * (4 * joints)
    return p + struct.pack("<%dd" % len(values), *values)


def hello_payload(role=1, status=0, name=b"aerial_manipulator", nonce=bytes(16), peer=bytes(16)):
    p = struct.pack("<IIIIi", 0x5EED1234, 6, 6, role, status)
    return p + name.ljust(40, b"\0") + nonce + peer


PAYLOADS = {
    SENSORS: sensors_payload(),
    COMMAND: command_payload(),
    REFERENCE: reference_payload(),
    HELLO: hello_payload(),
}


def header(kind, payload_size, sequence):
    return MAGIC + bytes([VERSION, kind]) + struct.pack("<HI", payload_size, sequence)


def frame(kind, payload, sequence):
    body = header(kind, len(payload), sequence) + payload
    return body + struct.pack("<I", zlib.crc32(body))


def cobs(data):
    out, block = bytearray(), bytearray()
    for b in data:
        if b == 0:
            out += bytes([len(block) + 1]) + block
            block = bytearray()
        else:
            block.append(b)
            if len(block) == 254:
                out += bytes([255]) + block
                block = bytearray()
    if block or not out or data[-1:] == b"\0":
        out += bytes([len(block) + 1]) + block
    return bytes(out)


def wire(kind, payload, sequence):
    return cobs(frame(kind, payload, sequence)) + b"\0"


def message_record(kind, sequence=1, offset=0, data=b""):
    """A message as the session mode reads it (link_fuzz_support.hpp, message_from)."""
    return (bytes([kind - 1]) + struct.pack("<III", sequence, 0, 0) +
            bytes([offset // 4, len(data)]) + data)


def seeds():
    stream = b"".join(wire(k, p, n) for n, (k, p) in enumerate(PAYLOADS.items(), 1))
    s = {}
    # mode 0: streams; flags bit 0 keyed, bits 1-2 feeding, bit 3 session.
    s["stream_push"] = b"\x00\x00" + stream
    s["stream_parse_bytes"] = b"\x00\x02" + stream
    s["stream_bytewise"] = b"\x00\x04" + stream
    s["stream_keyed"] = b"\x00\x09" + bytes(range(32)) + stream
    s["stream_garbage"] = b"\x00\x00" + b"\x17junk\x00\x00" + stream[:300] + b"\x00" + stream
    s["stream_bad_values"] = b"\x00\x00" + wire(SENSORS, sensors_payload(joints=13), 1) + \
        wire(COMMAND, command_payload(mode=9), 2) + wire(HELLO, hello_payload(role=3), 3)
    # mode 1: one frame the harness seals; flags: 1 keyed, 2 tag, 4 session, 8 header.
    for kind, payload in PAYLOADS.items():
        name = {SENSORS: "sensors", COMMAND: "command", REFERENCE: "reference", HELLO: "hello"}[kind]
        s["sealed_%s" % name] = b"\x01\x08" + header(kind, len(payload), 5) + payload
        s["sealed_signed_%s" % name] = (b"\x01\x0f" + bytes(range(100, 132)) +
                                        header(kind | SIGNED, len(payload), 5) + payload +
                                        struct.pack("<Q", 3))
    s["sealed_signed_hello_no_session"] = (b"\x01\x0b" + header(HELLO | SIGNED, 92, 1) +
                                           hello_payload() + struct.pack("<Q", 1))
    s["sealed_name_without_nul"] = b"\x01\x08" + header(HELLO, 92, 1) + \
        hello_payload(name=b"n" * 40)
    # mode 2: hello counter (u32), session flag, then operations (fuzz_link.cpp, Session::run).
    ops = bytearray()
    for kind in (SENSORS, REFERENCE, COMMAND, HELLO):
        ops += b"\x00" + message_record(kind, 1, 12, struct.pack("<II", 6, 6))
    ops += b"\x02" + message_record(SENSORS, 2)        # held back
    ops += b"\x00" + message_record(SENSORS, 3)
    ops += b"\x03\x04"                                   # the held one, reordered
    ops += b"\x03\x04"                                   # and again: a replay
    ops += b"\x04" + message_record(REFERENCE, 4) + b"\x01" + struct.pack("<I", 30) + b"\x03"
    ops += b"\x05" + bytes(range(32))                    # new session
    ops += b"\x03\x00"                                   # an old session's frame
    ops += b"\x06\x02" + b"\x11\x22\x00\x33\x44\x55\x66\x77"
    ops += b"\x07" + message_record(COMMAND, 5) + struct.pack("<I", 40)
    s["session_mixed"] = b"\x02" + struct.pack("<I", 1000) + b"\x01" + bytes(range(32)) + ops
    s["session_no_session"] = b"\x02" + struct.pack("<I", 5) + b"\x00" + \
        b"\x00" + message_record(SENSORS) + b"\x00" + message_record(HELLO)
    # mode 3: COBS.
    s["cobs_frame"] = b"\x03" + cobs(frame(COMMAND, command_payload(), 1))
    s["cobs_long_run"] = b"\x03" + bytes([255]) + b"\x01" * 254 + b"\x01"
    s["cobs_zeros"] = b"\x03" + b"\x01\x01\x01\x02\x05"
    return s


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "corpus", "link")
    os.makedirs(out, exist_ok=True)
    for name, data in sorted(seeds().items()):
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
    print("%d seeds in %s" % (len(seeds()), out))


if __name__ == "__main__":
    main()
