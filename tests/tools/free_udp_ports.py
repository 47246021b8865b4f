#!/usr/bin/env python3
"""Prints N distinct loopback UDP ports that were free a moment ago (default 2).

Drawn from 20000-32000, below Linux's ephemeral range (32768-60999): a port the
kernel hands out for bind(0) is one another process may take next, which made
HIL tests fail with 'Address already in use' (docs/hil.md, "The flake").
Shared by tests/tools/hil_pair.sh, hil_process_faults.sh and
tests/security/link_attack.sh.
"""
import random
import socket
import sys

count = int(sys.argv[1]) if len(sys.argv) > 1 else 2
ports = []
while len(ports) < count:
    p = random.randrange(20000, 32000)
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.bind(("127.0.0.1", p))
    except OSError:
        continue
    finally:
        s.close()
    if p not in ports:
        ports.append(p)
print(*ports, flush=True)
