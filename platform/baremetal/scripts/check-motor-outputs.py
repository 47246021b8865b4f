#!/usr/bin/env python3
"""check-motor-outputs.py IMAGE.elf FIRST_TIMER SECOND_TIMER ENABLE_FUNCTION

For a board that cannot run here (the STM32H743: QEMU has no H7 machine),
checks what the link decides about its motor outputs
(boards/stm32/timer_pwm_outputs.hpp):
  - the board's `g_motor_outputs` object is constant-initialized in .data
    (no start-up code has to run for it) with the vtable of
    stm32::TimerPwmOutputs, the two timers' base addresses given here and a
    pointer to ENABLE_FUNCTION (a demangled name, e.g.
    hodyn::baremetal::stm32h743::enable_tim3_tim4());
  - board::rotor_outputs() is the board's strong definition, not the weak
    "no outputs" default of src/rotor_outputs_none.cpp.
Exits 1 with the reason on the first failed check."""
import os
import subprocess
import sys
import tempfile


def symbols(image, nm):
    """name (demangled) -> (address, type letter, size)."""
    out = subprocess.run([nm, "-C", "-S", image], check=True, capture_output=True,
                         text=True).stdout
    table = {}
    for line in out.splitlines():
        parts = line.split(maxsplit=3)
        if len(parts) == 4:
            addr, size, kind, name = parts
            table[name] = (int(addr, 16), kind, int(size, 16))
        elif len(parts) == 3:
            addr, kind, name = parts
            table[name] = (int(addr, 16), kind, 0)
    return table


def words(image, address, count):
    """`count` little-endian 32-bit words of the .data section at `address`."""
    sections = subprocess.run(["arm-none-eabi-readelf", "-SW", image], check=True,
                              capture_output=True, text=True).stdout
    vma = None
    for line in sections.splitlines():
        parts = line.replace("[ ", "[").split()
        if ".data" in parts:
            vma = int(parts[parts.index(".data") + 2], 16)
    if vma is None:
        return []
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "data.bin")
        subprocess.run(["arm-none-eabi-objcopy", "-O", "binary", "-j", ".data", image, out],
                       check=True)
        with open(out, "rb") as f:
            data = f.read()
    start = address - vma
    chunk = data[start:start + 4 * count]
    return [int.from_bytes(chunk[4 * i:4 * i + 4], "little") for i in range(len(chunk) // 4)]


def main():
    if len(sys.argv) != 5:
        print(__doc__)
        return 2
    image, first, second, enable = sys.argv[1], int(sys.argv[2], 0), int(sys.argv[3], 0), sys.argv[4]
    table = symbols(image, "arm-none-eabi-nm")
    objects = [n for n in table if n.endswith("g_motor_outputs") and "board" in n]
    if len(objects) != 1:
        print(f"FAIL: one board g_motor_outputs expected in {image}, found {objects}")
        return 1
    address, kind, size = table[objects[0]]
    if kind not in "dD":
        print(f"FAIL: {objects[0]} is in section type '{kind}', not .data: "
              "it would need start-up code (or is zero-initialized)")
        return 1
    vtable = table.get("vtable for hodyn::baremetal::stm32::TimerPwmOutputs")
    target = table.get(enable)
    if vtable is None or target is None:
        print(f"FAIL: missing symbol: vtable of TimerPwmOutputs {vtable}, {enable} {target}")
        return 1
    w = words(image, address, 4)
    if len(w) != 4:
        print(f"FAIL: could not read 16 bytes of .data at 0x{address:08x}")
        return 1
    expected = [vtable[0] + 8, first, second, target[0] | 1]  # Itanium ABI vptr, Thumb bit
    names = ["vptr", "first timer", "second timer", "enable function"]
    for name, got, want in zip(names, w, expected):
        if got != want:
            print(f"FAIL: g_motor_outputs {name} = 0x{got:08x}, expected 0x{want:08x}")
            return 1
    outputs = [n for n in table if n == "hodyn::baremetal::board::rotor_outputs()"]
    if not outputs or table[outputs[0]][1] != "T":
        kind = table[outputs[0]][1] if outputs else "missing"
        print(f"FAIL: board::rotor_outputs() is '{kind}', not the board's strong definition (T)")
        return 1
    print(f"ok: g_motor_outputs in .data at 0x{address:08x}: TimerPwmOutputs, timers "
          f"0x{first:08x} / 0x{second:08x}, enable = {enable}; board::rotor_outputs() defined")
    return 0


if __name__ == "__main__":
    sys.exit(main())
