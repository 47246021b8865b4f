#!/usr/bin/env python3
"""A relay between hodyn-sim and hodyn-fc on an unsigned UDP link that spoils
one COMMAND (hil_pair.sh bad_command; docs/robustness.md, "The plant").

Each program's peer is the relay, so it hears only the relay: datagrams from
the simulator go on to the controller unchanged; the COMMAND frames from the
controller go on to the simulator unchanged up to the AFTER-th, which is
re-sealed (a valid CRC) with rotor_speed[0] = NaN (--spoil nan) or
num_rotors = 5 (--spoil counts; <= 8, and its rotor_speed array cut or
zero-padded to 5 entries with the length field to match, so the link accepts
it). The frame layout is docs/link-protocol.md's (version 4: arrays sized to
the counts). Ends after 0.3 s without traffic (or
--limit seconds) and prints how many COMMANDs it relayed and spoilt.

  hil_command_mangler.py --fc-port P --sim-port P --fc-side R1 --sim-side R2
                         --after N --spoil nan|counts
"""
import argparse
import math
import select
import socket
import struct
import sys
import time
import zlib

HEADER, CRC = 10, 4
COMMAND = 2
SIGNED = 0x80


def cobs_encode(data):
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
    return bytes(out + bytes([len(block) + 1]) + block)


def cobs_decode(data):
    out, i = bytearray(), 0
    while i < len(data):
        code = data[i]
        if code == 0 or i + code > len(data):
            return None
        out += data[i + 1:i + code]
        i += code
        if code != 255 and i < len(data):
            out.append(0)
    return bytes(out)


def spoil(frame, how):
    """The frame with the COMMAND payload spoilt and a fresh CRC."""
    payload = bytearray(frame[HEADER:len(frame) - CRC])
    header = bytearray(frame[:HEADER])
    if how == "nan":
        struct.pack_into("<d", payload, 32, math.nan)  # rotor_speed[0]
    else:
        rotors = struct.unpack_from("<I", payload, 16)[0]
        struct.pack_into("<I", payload, 16, 5)  # num_rotors
        # rotor_speed (offset 32, one f64 per rotor) to 5 entries, then motor_torque.
        speeds = bytes(payload[32:32 + 8 * rotors])[:40].ljust(40, b"\0")
        payload = payload[:32] + speeds + payload[32 + 8 * rotors:]
        struct.pack_into("<H", header, 4, len(payload))
    body = bytes(header) + bytes(payload)
    return body + struct.pack("<I", zlib.crc32(body) & 0xFFFFFFFF)


def main():
    p = argparse.ArgumentParser()
    for name in ("--fc-port", "--sim-port", "--fc-side", "--sim-side", "--after"):
        p.add_argument(name, type=int, required=True)
    p.add_argument("--spoil", choices=("nan", "counts"), required=True)
    p.add_argument("--limit", type=float, default=30.0)
    a = p.parse_args()
    to_fc = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    to_fc.bind(("127.0.0.1", a.fc_side))
    to_sim = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    to_sim.bind(("127.0.0.1", a.sim_side))
    commands = spoilt = 0
    start = last = time.monotonic()
    while time.monotonic() - start < a.limit and (time.monotonic() - last < 0.3 or commands == 0):
        ready, _, _ = select.select([to_fc, to_sim], [], [], 0.1)
        for sock in ready:
            datagram, _ = sock.recvfrom(65536)
            last = time.monotonic()
            if sock is to_sim:
                to_fc.sendto(datagram, ("127.0.0.1", a.fc_port))
                continue
            out = bytearray()
            for block in datagram.split(b"\0"):
                if not block:
                    continue
                frame = cobs_decode(block)
                if frame and len(frame) > HEADER + CRC and frame[3] == COMMAND:
                    commands += 1
                    if commands == a.after:
                        frame = spoil(frame, a.spoil)
                        spoilt += 1
                    block = cobs_encode(frame)
                out += block + b"\0"
            to_sim.sendto(bytes(out), ("127.0.0.1", a.sim_port))
    print(f"relay: {commands} COMMAND frames, {spoilt} spoilt ({a.spoil})", flush=True)
    return 0 if spoilt == 1 else 1


if __name__ == "__main__":
    sys.exit(main())
