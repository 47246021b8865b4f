#!/usr/bin/env python3
"""Instructions per control step by function, from a QEMU exec trace.

Run the firmware HIL with QEMU logging every translated and executed block,
e.g. through a wrapper given to tests/firmware_hil/firmware_hil.sh --qemu:

    exec /usr/bin/qemu-system-arm "$@" -d in_asm,exec,nochain -D trace.log

(0.2 s of HIL at 1 kHz writes ~0.3-0.8 GB), then

    scripts/qemu_exec_profile.py trace.log IMAGE.elf

Counting starts at the first entry of the step function (--step, default
ControllerHost::run_update) and everything is divided by its entries: the
self instructions of each function per step, and the instructions of the
libgcc soft-float helpers (__aeabi_d*, __*df*) charged to the function that
called them, with their calls per step. Idle polling is counted too (it is
not part of firmware-budget.json's period parts). Instructions are those of
each block as QEMU translated it (-icount splits blocks at I/O).
--helpers REGEX charges other functions to their callers instead, e.g.
'^(memcpy|memmove|memset|memchr)$' for the C library's copies.
"""
import argparse
import collections
import re
import subprocess
import sys

HELPER = re.compile(r'^(__aeabi_[a-z0-9]+|__[a-z]+[sd]f[0-9]?\w*|__(cmp|eq|ne|lt|le|gt|ge|unord)df2)$')
TRACE = re.compile(r'Trace \d+: \S+ \[[0-9a-f]+/([0-9a-f]+)/[^\]]*\] ?(.*)')


def step_entry(elf, pattern):
    out = subprocess.run(['arm-none-eabi-nm', elf], capture_output=True, text=True, check=True)
    for line in out.stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and re.search(pattern, parts[2]):
            return int(parts[0], 16) & ~1
    sys.exit(f'no symbol matching {pattern} in {elf}')


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('trace')
    ap.add_argument('elf')
    ap.add_argument('--step', default=r'ControllerHost.*10run_update')
    ap.add_argument('--top', type=int, default=40)
    ap.add_argument('--helpers', help='regex of the functions charged to their callers '
                    '(default: the libgcc soft-float helpers)')
    args = ap.parse_args()
    global HELPER
    if args.helpers:
        HELPER = re.compile(args.helpers)
    entry = step_entry(args.elf, args.step)

    size = {}  # block start -> instructions (latest translation)
    block = None
    own = collections.Counter()
    helpers = collections.Counter()
    calls = collections.Counter()
    steps = 0
    caller = None
    previous = None
    with open(args.trace, errors='replace') as f:
        for line in f:
            if line.startswith('IN:'):
                block = None
            elif line.startswith('0x') and line[10:11] == ':':
                pc = int(line[:10], 16)
                if block is None:
                    block = pc
                    size[pc] = 0
                size[block] += 1
            elif line.startswith('Trace'):
                block = None
                m = TRACE.match(line)
                if not m:
                    continue
                pc, name = int(m.group(1), 16), m.group(2).strip()
                if pc == entry:
                    steps += 1
                if steps:
                    n = size.get(pc, 1)
                    own[name] += n
                    if HELPER.match(name):
                        helpers[caller] += n
                        if previous is None or not HELPER.match(previous):
                            calls[(caller, name)] += 1
                    else:
                        caller = name
                previous = name
    if not steps:
        sys.exit('the step function never ran in the trace')
    print(f'steps: {steps}; instructions per step (idle polling included): '
          f'{sum(own.values()) / steps:.0f}')
    print('\nself instructions per step')
    for name, n in own.most_common(args.top):
        print(f'{n / steps:10.1f}  {name}')
    print('\nsoft-float helper instructions per step, by caller')
    for name, n in helpers.most_common(args.top):
        print(f'{n / steps:10.1f}  {name}')
    print('\nhelper calls per step, by caller')
    for (name, helper), n in calls.most_common(args.top):
        print(f'{n / steps:10.2f}  {helper:<16} {name}')


if __name__ == '__main__':
    main()
