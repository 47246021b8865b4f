#!/usr/bin/env python3
"""The third process of the link security test (tests/security/link_attack.sh,
docs/link-security.md): an attacker on the loopback between hodyn-sim and
hodyn-fc.

It sits on the path (it relays the pair's datagrams, as a compromised switch
would), so the frames it injects carry the peer's address and port and reach
the MAC checks; it also sends from other addresses and ports, which the UDP
filter must drop. It never has the shared key: its forgeries are signed with
a wrong key through the real key derivation and the real nonces it reads from
the HELLOs. With --check-key it verifies the genuine frames' tags with the real
key, only to prove that its SipHash and key derivation are the protocol's (so
that "wrong key" forgeries fail for the key, not for a bug).

  relay  --fc-port P --sim-port P --relay-fc-port R --relay-sim-port R
         [--record CAPTURE] [--attack --old CAPTURE --report JSON --check-key KEY]
  replay --capture CAPTURE --fc-port P --relay-fc-port R --report JSON

Python 3 standard library only.
"""
import argparse
import json
import os
import random
import select
import socket
import struct
import sys
import time
import zlib

MASK = 0xFFFFFFFFFFFFFFFF
HEADER, CRC, COUNTER, TAG = 10, 4, 8, 16
SIGNED = 0x80
SENSORS, COMMAND, REFERENCE, HELLO = 1, 2, 3, 4
HELLO_PAYLOAD = 92


def sensors_payload_size(payload):
    """A SENSORS payload's size from its counts (version 4: arrays sized to them)."""
    if len(payload) < 24:
        return -1
    joints, rotors = struct.unpack_from("<II", payload, 12)
    return 128 + 8 * (4 * joints + rotors)


# ---- SipHash-2-4-128 (Aumasson & Bernstein; the 128-bit mode) ----------------
def _rotl(x, b):
    return ((x << b) | (x >> (64 - b))) & MASK


def siphash128(key, data):
    k0 = int.from_bytes(key[:8], "little")
    k1 = int.from_bytes(key[8:16], "little")
    v0 = k0 ^ 0x736F6D6570736575
    v1 = k1 ^ 0x646F72616E646F6D ^ 0xEE
    v2 = k0 ^ 0x6C7967656E657261
    v3 = k1 ^ 0x7465646279746573

    def rounds(n):
        nonlocal v0, v1, v2, v3
        for _ in range(n):
            v0 = (v0 + v1) & MASK; v1 = _rotl(v1, 13); v1 ^= v0; v0 = _rotl(v0, 32)
            v2 = (v2 + v3) & MASK; v3 = _rotl(v3, 16); v3 ^= v2
            v0 = (v0 + v3) & MASK; v3 = _rotl(v3, 21); v3 ^= v0
            v2 = (v2 + v1) & MASK; v1 = _rotl(v1, 17); v1 ^= v2; v2 = _rotl(v2, 32)

    whole = len(data) - len(data) % 8
    for at in range(0, whole, 8):
        m = int.from_bytes(data[at:at + 8], "little")
        v3 ^= m
        rounds(2)
        v0 ^= m
    b = ((len(data) & 0xFF) << 56) | int.from_bytes(data[whole:], "little")
    v3 ^= b
    rounds(2)
    v0 ^= b
    v2 ^= 0xEE
    rounds(4)
    out0 = v0 ^ v1 ^ v2 ^ v3
    v1 ^= 0xDD
    rounds(4)
    out1 = v0 ^ v1 ^ v2 ^ v3
    return out0.to_bytes(8, "little") + out1.to_bytes(8, "little")


# The published vector vectors_sip128[15]: key 00..0f, message 00..0e.
assert siphash128(bytes(range(16)), bytes(range(15))) == bytes.fromhex(
    "5493e99933b0a8117e08ec0f97cfc3d9"), "SipHash-2-4-128 self-check failed"


def kdf(master, label, n_sim, n_fc):
    m = label.encode().ljust(16, b"\0") + n_sim + n_fc
    a, b = siphash128(master[:16], m), siphash128(master[16:32], m)
    return bytes(x ^ y for x, y in zip(a, b))


def session_keys(master, n_sim, n_fc):
    return {"s2c": kdf(master, "hodyn-sess-s2c", n_sim, n_fc),
            "c2s": kdf(master, "hodyn-sess-c2s", n_sim, n_fc),
            "hello-s2c": kdf(master, "hodyn-hello-s2c", bytes(16), bytes(16)),
            "hello-c2s": kdf(master, "hodyn-hello-c2s", bytes(16), bytes(16))}


# ---- COBS and frames ------------------------------------------------------------
def cobs_encode(data):
    out, block = bytearray(), bytearray()
    for byte in data:
        if byte == 0:
            out.append(len(block) + 1); out += block; block = bytearray()
        else:
            block.append(byte)
            if len(block) == 254:
                out.append(255); out += block; block = bytearray()
    out.append(len(block) + 1); out += block
    # canonical: a trailing full block is not followed by an empty one
    if len(data) > 0 and len(data) % 254 == 0 and 0 not in data[-254:] and out[-1] == 1:
        out = out[:-1]
    return bytes(out)


def cobs_decode(data):
    out, at = bytearray(), 0
    while at < len(data):
        code = data[at]
        if code == 0 or at + code > len(data) + (0 if code > 1 else 1):
            return None
        out += data[at + 1:at + code]
        at += code
        if code < 255 and at < len(data):
            out.append(0)
    return bytes(out)


def wire(frame):
    return cobs_encode(frame) + b"\0"


def unwire(datagram):
    if not datagram or datagram[-1] != 0 or 0 in datagram[:-1]:
        return None
    return cobs_decode(datagram[:-1])


def seal(frame_without_crc):
    return frame_without_crc + struct.pack("<I", zlib.crc32(frame_without_crc) & 0xFFFFFFFF)


class Frame:
    """A signed or unsigned frame of the link (header, payload, [counter, tag], CRC)."""

    def __init__(self, raw):
        self.raw = raw
        self.type = raw[3] & 0x7F
        self.signed = bool(raw[3] & SIGNED)
        self.length = struct.unpack_from("<H", raw, 4)[0]
        self.payload = raw[HEADER:HEADER + self.length]
        self.counter = struct.unpack_from("<Q", raw, HEADER + self.length)[0] if self.signed else 0

    def tag_ok(self, key):
        body = self.raw[:HEADER + self.length + COUNTER]
        return siphash128(key, body) == self.raw[len(body):len(body) + TAG]

    def signed_with(self, key, payload=None, counter=None):
        payload = self.payload if payload is None else payload
        counter = self.counter if counter is None else counter
        body = self.raw[:3] + bytes([self.type | SIGNED]) + self.raw[4:HEADER] + payload + \
            struct.pack("<Q", counter)
        return seal(body + siphash128(key, body))

    def unsigned(self):
        return seal(self.raw[:3] + bytes([self.type]) + self.raw[4:HEADER] + self.payload)


def direction_key(keys, frame, to_fc):
    d = "s2c" if to_fc else "c2s"
    return keys["hello-" + d] if frame.type == HELLO else keys[d]


# ---- the relay and attacker -----------------------------------------------------------
def udp(address="127.0.0.1", port=0):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind((address, port))
    return s


def send(sock, datagram, to):
    try:
        sock.sendto(datagram, to)
        return True
    except OSError:  # the far end has gone (ECONNREFUSED after its exit)
        return False


class Tally(dict):
    def add(self, what, n=1):
        self[what] = self.get(what, 0) + n


def relay(args):
    fc_addr, sim_addr = ("127.0.0.1", args.fc_port), ("127.0.0.1", args.sim_port)
    to_fc = udp(port=args.relay_fc_port)      # the controller's peer: this address and port
    to_sim = udp(port=args.relay_sim_port)    # the simulator's peer
    # Foreign senders: another port on the peer's address, the peer's port on another address.
    foreign = [udp(), udp("127.0.0.2", args.relay_fc_port), udp("127.0.0.2", args.relay_sim_port)]
    rng = random.Random(20261126)
    wrong_master = rng.randbytes(32)
    real_master = open(args.check_key, "rb").read() if args.check_key else None
    old = []
    if args.old:
        old = [(json.loads(line)["dir"], bytes.fromhex(json.loads(line)["hex"]))
               for line in open(args.old)]
    old_s2c = [d for k, d in old if k == "s2c"]
    old_c2s = [d for k, d in old if k == "c2s"]
    record = open(args.record, "w") if args.record else None
    at_fc, at_sim = Tally(), Tally()  # what the controller / simulator must count
    n_sim = n_fc = None
    wrong_keys = real_keys = None
    recent_s2c, recent_c2s = [], []   # genuine datagrams already forwarded, for live replays
    started = False                   # the first COMMAND went through: the run is on
    last_sequence = None
    heard, last_heard, t_start = False, time.monotonic(), time.monotonic()
    checked = Tally()

    def garbage():
        n = rng.choice([rng.randrange(1, 40), rng.randrange(40, 700), rng.randrange(790, 1400)])
        return bytes(b or 1 for b in rng.randbytes(n)) + b"\0"

    def inject_at_fc(genuine):
        """Before a genuine SENSORS datagram goes to the controller."""
        if recent_s2c:
            send(to_fc, recent_s2c[-min(len(recent_s2c), 5)], fc_addr)  # this session's, seen
            at_fc.add("replay")
        if old_s2c:
            d = old_s2c[rng.randrange(len(old_s2c))]
            send(to_fc, d, fc_addr)  # an old session's frame: its HELLOs are old, the rest another key
            at_fc.add("replay" if Frame(unwire(d)).type == HELLO else "mac")
        f = Frame(genuine)
        if wrong_keys and rng.random() < 0.5:  # forged: the position moved 1 m, wrong key
            payload = bytearray(f.payload)
            x = struct.unpack_from("<d", payload, 24)[0]
            struct.pack_into("<d", payload, 24, x + 1.0)
            send(to_fc, wire(f.signed_with(wrong_keys["s2c"], bytes(payload), f.counter + 1)),
                 fc_addr)
            at_fc.add("mac")
        send(to_fc, wire(f.unsigned()), fc_addr)
        at_fc.add("unsigned")
        send(to_fc, garbage(), fc_addr)
        at_fc.add("garbage")
        sock = foreign[rng.choice([0, 1])]
        send(sock, wire(f.raw), fc_addr)  # the genuine bytes, from another address or port
        at_fc.add("foreign")

    def inject_at_sim(genuine):
        """Before a genuine COMMAND datagram goes to the simulator."""
        if recent_c2s:
            send(to_sim, recent_c2s[-min(len(recent_c2s), 3)], sim_addr)
            at_sim.add("replay")
        if old_c2s:
            d = old_c2s[rng.randrange(len(old_c2s))]
            send(to_sim, d, sim_addr)
            at_sim.add("replay" if Frame(unwire(d)).type == HELLO else "mac")
        f = Frame(genuine)
        if wrong_keys and rng.random() < 0.5:  # forged: every rotor at 2000 rad/s, wrong key
            payload = bytearray(f.payload)
            for i in range(8):
                struct.pack_into("<d", payload, 32 + 8 * i, 2000.0)
            send(to_sim, wire(f.signed_with(wrong_keys["c2s"], bytes(payload), f.counter + 1)),
                 sim_addr)
            at_sim.add("mac")
        send(to_sim, wire(f.unsigned()), sim_addr)
        at_sim.add("unsigned")
        send(to_sim, garbage(), sim_addr)
        at_sim.add("garbage")
        send(foreign[rng.choice([0, 2])], wire(f.raw), sim_addr)
        at_sim.add("foreign")

    while True:
        ready, _, _ = select.select([to_fc, to_sim], [], [], 0.05)
        now = time.monotonic()
        if not ready:
            if (heard and now - last_heard > args.idle) or now - t_start > args.max_time:
                break
            continue
        for sock in ready:
            datagram, source = sock.recvfrom(4096)
            from_sim = sock is to_sim
            if source != (sim_addr if from_sim else fc_addr):
                continue  # not one of the pair
            heard, last_heard = True, now
            if record:
                record.write(json.dumps({"dir": "s2c" if from_sim else "c2s",
                                         "hex": datagram.hex()}) + "\n")
            raw = unwire(datagram)
            frame = Frame(raw) if raw and len(raw) >= HEADER + CRC else None
            if frame and frame.type == HELLO and len(frame.payload) == HELLO_PAYLOAD:
                if from_sim:
                    n_sim = frame.payload[60:76]
                elif frame.payload[76:92] == n_sim:
                    n_fc = frame.payload[60:76]
                    wrong_keys = session_keys(wrong_master, n_sim, n_fc)
                    if real_master:
                        real_keys = session_keys(real_master, n_sim, n_fc)
            if real_keys and frame and frame.signed and checked.get("frames", 0) < 400:
                checked.add("frames")
                checked.add("tag_ok", frame.tag_ok(direction_key(real_keys, frame, from_sim)))
            attack = args.attack and started and frame is not None
            if from_sim:
                if (frame and frame.type == SENSORS and
                        len(frame.payload) == sensors_payload_size(frame.payload)):
                    sequence = struct.unpack_from("<I", frame.payload, 8)[0]
                    status = struct.unpack_from("<I", frame.payload, 20)[0]
                    # Stop well before the end, so the simulator reads everything sent to it.
                    if status & 4 or (args.periods and sequence + 20 >= args.periods):
                        attack = False
                    if attack:
                        inject_at_fc(raw)
                send(to_fc, datagram, fc_addr)
                at_fc.add("genuine")
                recent_s2c = (recent_s2c + [datagram])[-8:]
            else:
                if frame and frame.type == COMMAND:
                    if attack and not (args.periods and last_sequence is not None and
                                       last_sequence + 20 >= args.periods):
                        inject_at_sim(raw)
                    last_sequence = struct.unpack_from("<I", frame.payload, 8)[0]
                    started = True
                send(to_sim, datagram, sim_addr)
                at_sim.add("genuine")
                recent_c2s = (recent_c2s + [datagram])[-8:]
    if record:
        record.close()
    report = {"to_fc": at_fc, "to_sim": at_sim, "tag_check": checked,
              "nonces_seen": n_sim is not None and n_fc is not None}
    if args.report:
        with open(args.report + ".tmp", "w") as f:
            json.dump(report, f, indent=1, sort_keys=True)
        os.replace(args.report + ".tmp", args.report)


def replay(args):
    """Every datagram the simulator sent in a recorded session, in order, to
    a (restarted) controller, from its peer's address and port."""
    sock = udp(port=args.relay_fc_port)
    sent = Tally()
    for line in open(args.capture):
        item = json.loads(line)
        if item["dir"] != "s2c":
            continue
        datagram = bytes.fromhex(item["hex"])
        send(sock, datagram, ("127.0.0.1", args.fc_port))
        sent.add("hello" if Frame(unwire(datagram)).type == HELLO else "session")
        while select.select([sock], [], [], 0)[0]:  # drain its answers
            sock.recv(4096)
        time.sleep(0.0001)
    end = time.monotonic() + 0.3
    while time.monotonic() < end:
        if select.select([sock], [], [], 0.05)[0]:
            sock.recv(4096)
    with open(args.report, "w") as f:
        json.dump(sent, f, indent=1, sort_keys=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="mode", required=True)
    r = sub.add_parser("relay")
    r.add_argument("--fc-port", type=int, required=True)
    r.add_argument("--sim-port", type=int, required=True)
    r.add_argument("--relay-fc-port", type=int, required=True)
    r.add_argument("--relay-sim-port", type=int, required=True)
    r.add_argument("--record")
    r.add_argument("--attack", action="store_true")
    r.add_argument("--old")
    r.add_argument("--report")
    r.add_argument("--check-key")
    r.add_argument("--periods", type=int, default=0)
    r.add_argument("--idle", type=float, default=1.5)
    r.add_argument("--max-time", type=float, default=90.0)
    q = sub.add_parser("replay")
    q.add_argument("--capture", required=True)
    q.add_argument("--fc-port", type=int, required=True)
    q.add_argument("--relay-fc-port", type=int, required=True)
    q.add_argument("--report", required=True)
    args = p.parse_args()
    relay(args) if args.mode == "relay" else replay(args)


if __name__ == "__main__":
    sys.exit(main())
