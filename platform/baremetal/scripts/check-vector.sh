#!/usr/bin/env bash
# check-vector.sh IMAGE.elf POSITION SYMBOL
# Passes when word 16 + POSITION of the image's vector table (.isr_vector;
# external interrupt POSITION, ARMv7-M ARM B1.5.3) holds SYMBOL's address
# (with the Thumb bit), e.g. check-vector.sh hello.elf 39 USART3_IRQHandler.
set -euo pipefail
image=$1 position=$2 symbol=$3
nm=${NM:-arm-none-eabi-nm}
readelf=${READELF:-arm-none-eabi-readelf}
objdump=${OBJDUMP:-arm-none-eabi-objdump}
# The awk scripts read their whole input (no early exit): with pipefail, a
# producer killed by SIGPIPE would fail the check (seen once nm's output grew).
table=$("$readelf" -SW "$image" | awk '!found { for (i = 1; i <= NF; ++i) if ($i == ".isr_vector") { print $(i + 2); found = 1; break } }')
[[ -n $table ]] || { echo "FAIL: no .isr_vector in $image"; exit 1; }
target=$("$nm" "$image" | awk -v s="$symbol" '$3 == s && !found { print $1; found = 1 }')
[[ -n $target ]] || { echo "FAIL: no symbol $symbol in $image"; exit 1; }
address=$((0x$table + 4 * (16 + position)))
word=$("$objdump" -s -j .isr_vector --start-address=$address --stop-address=$((address + 4)) "$image" |
  awk 'NF >= 2 && $1 ~ /^[0-9a-f]+$/ && !found { print $2; found = 1 }')
# Little-endian bytes to a number.
value=$((0x${word:6:2}${word:4:2}${word:2:2}${word:0:2}))
expected=$((0x$target | 1))
if [[ $value -ne $expected ]]; then
  printf 'FAIL: vector 16 + %d = 0x%08x, %s is at 0x%08x\n' "$position" "$value" "$symbol" "$expected"
  exit 1
fi
printf 'ok: vector 16 + %d = %s (0x%08x)\n' "$position" "$symbol" "$value"
